import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { disableScrollRestoration } from './app/layout/ScrollManager';
import './index.css';

disableScrollRestoration();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

// Public pages arrive prerendered (scripts/prerender.mjs): hydrate them so nothing flashes.
// The members area and other client-only pages arrive as the empty shell.
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
