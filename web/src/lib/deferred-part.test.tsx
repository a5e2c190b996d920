import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferredPart } from './deferred-part';
import { createMemoryHistory, Link, Router, useLocation } from './router';

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>;
}

function Sections({ onLink }: { onLink: () => void }) {
  return (
    <section>
      <h2>Below the hero</h2>
      <Link to="/booking" onClick={onLink}>
        Book
      </Link>
      <a href="https://example.org/elsewhere">Elsewhere</a>
    </section>
  );
}

/** A deferred Sections whose loader is counted, and the history the page runs on. */
function setup(path = '/') {
  const onLink = vi.fn();
  const load = vi.fn(async () => Sections);
  const Part = deferredPart('test-sections', load, { onLinkClick: onLink });
  const history = createMemoryHistory([path]);
  const page = (
    <Router history={history}>
      <Where />
      <Part onLink={onLink} />
    </Router>
  );
  return { load, onLink, history, page };
}

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = '';
});

/** The page's HTML as the prerender makes it: a second pass once the lazily loaded part settled. */
async function serverHtml(page: ReactNode): Promise<string> {
  renderToString(page);
  await new Promise((r) => setTimeout(r, 0));
  return renderToString(page);
}

/** Hydrates `page` over the server HTML of `serverPage`, as the browser does a prerendered page. */
async function hydrate(page: ReactNode, serverPage: ReactNode) {
  const container = document.createElement('div');
  container.innerHTML = await serverHtml(serverPage);
  document.body.append(container);
  await act(async () => {
    root = hydrateRoot(container, page);
  });
  return container;
}

describe('deferredPart', () => {
  it('renders afresh at once: a client-side visit loads the part', async () => {
    const { load, page } = setup();
    render(page);
    expect(await screen.findByRole('heading', { name: 'Below the hero' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('renders on the server with the part in the HTML', async () => {
    const { page } = setup();
    expect(await serverHtml(page)).toContain('Below the hero');
  });

  it('keeps the server HTML while hydrating and loads the code only when reached for', async () => {
    const { load, page } = setup();
    const server = setup();
    const container = await hydrate(page, server.page);
    const heading = screen.getByRole('heading', { name: 'Below the hero' });
    expect(load).not.toHaveBeenCalled();
    // The server's nodes are still the ones shown.
    expect(container.contains(heading)).toBe(true);

    fireEvent.pointerOver(heading);
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    // Hydrated in place: the same node, now React's.
    await waitFor(() =>
      expect(Object.keys(heading).some((key) => key.startsWith('__reactFiber$'))).toBe(true),
    );
    expect(container.contains(heading)).toBe(true);
  });

  it('a click on an app link before the code arrives navigates inside the app', async () => {
    const { load, onLink, history, page } = setup();
    const server = setup();
    await hydrate(page, server.page);
    const link = screen.getByRole('link', { name: 'Book' });
    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    act(() => {
      link.dispatchEvent(click);
    });
    // Not followed by the browser (no reload), but by the app's history.
    expect(click.defaultPrevented).toBe(true);
    expect(history.location.pathname).toBe('/booking');
    expect(onLink).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(load).toHaveBeenCalled());
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/booking'));
  });

  it('leaves other sites, and clicks that open a new tab, to the browser', async () => {
    const { history, page } = setup();
    const server = setup();
    await hydrate(page, server.page);
    // What the browser would do with each click, seen after the part's handler (on the window in
    // the capture phase too: React stops clicks on a part it has not hydrated), then not done.
    const followed: boolean[] = [];
    const record = (event: Event) => {
      followed.push(!event.defaultPrevented);
      event.preventDefault();
    };
    window.addEventListener('click', record, true);
    const click = (name: string, init: MouseEventInit) =>
      screen
        .getByRole('link', { name })
        .dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, ...init }));
    click('Elsewhere', { button: 0 });
    click('Book', { button: 0, ctrlKey: true });
    window.removeEventListener('click', record, true);
    expect(followed).toEqual([true, true]);
    expect(history.location.pathname).toBe('/');
  });
  it('loads the part when the location changes, so the update reaches it and nothing is lost', async () => {
    const { load, history, page } = setup();
    const server = setup();
    await hydrate(page, server.page);
    act(() => history.navigate('/?goal=true', { replace: true }));
    await waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/'));
    expect(screen.getByRole('heading', { name: 'Below the hero' })).toBeInTheDocument();
  });
});
