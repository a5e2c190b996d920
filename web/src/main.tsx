import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { disableScrollRestoration } from './app/layout/ScrollManager';
import './index.css';

disableScrollRestoration();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// Public pages and the 404 page arrive prerendered (scripts/prerender.mjs): hydrate them so
// nothing flashes. The members area and other client-only pages arrive as the empty shell.
// When the site owner overrides the content files, the server embeds them as #tribe-content and
// serves pages rendered again from them, marked data-rendered (internal/prerender), which hydrate
// like the build's. A page it could not render again still carries the build's text: render that
// afresh, which replaces it in one commit.
const override = document.getElementById('tribe-content');
const stale = override !== null && !override.hasAttribute('data-rendered');
const hydrate = root.hasChildNodes() && !stale;
const app = (
  <StrictMode>
    <App prerendered={hydrate} />
  </StrictMode>
);
// Hydration as a transition is done in slices that yield to the browser between them (as a default
// update it is one task as long as the whole page): the booking pages' hydration was a long task
// that a phone's main thread counted as blocking time.
if (hydrate)
  startTransition(() => {
    hydrateRoot(root, app);
  });
else createRoot(root).render(app);
