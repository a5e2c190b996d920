import { act, fireEvent, render, screen } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BrowserRouter,
  createBrowserHistory,
  createMemoryHistory,
  isActivePath,
  Link,
  NavLink,
  Router,
  StaticRouter,
  useLocation,
  useNavigate,
  useSearchParams,
} from './router';

function Where() {
  const { pathname, search, hash } = useLocation();
  return <output data-testid="where">{`${pathname}${search}${hash}`}</output>;
}

describe('createMemoryHistory', () => {
  it('pushes, replaces and moves back and forward, resolving relative and query-only paths', () => {
    const history = createMemoryHistory(['/about', '/booking']);
    expect(history.location.pathname).toBe('/booking');
    history.navigate('?tab=signup');
    expect(history.location).toMatchObject({ pathname: '/booking', search: '?tab=signup' });
    history.navigate('faq#pricing', { replace: true });
    expect(history.location).toMatchObject({ pathname: '/faq', search: '', hash: '#pricing' });
    history.go(-1);
    expect(history.location.pathname).toBe('/booking');
    history.go(-5);
    expect(history.location.pathname).toBe('/about');
    expect(history.location.key).toBe('default');
    history.go(2);
    expect(history.location.pathname).toBe('/faq');
    // A push after going back drops the forward entries.
    history.go(-1);
    history.navigate('/tribe');
    history.go(1);
    expect(history.location.pathname).toBe('/tribe');
  });

  it('gives every entry after the first its own key', () => {
    const history = createMemoryHistory(['/']);
    history.navigate('/about');
    const first = history.location.key;
    history.navigate('/about');
    expect(first).not.toBe('default');
    expect(history.location.key).not.toBe(first);
  });
});

describe('createBrowserHistory', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('writes to the address bar and follows popstate', () => {
    window.history.replaceState(null, '', '/about?x=1');
    const history = createBrowserHistory();
    expect(history.location).toMatchObject({ pathname: '/about', search: '?x=1', key: 'default' });
    let changes = 0;
    const stop = history.listen(() => {
      changes += 1;
    });
    history.navigate('/booking#faq');
    expect(window.location.pathname + window.location.hash).toBe('/booking#faq');
    expect(history.location.key).not.toBe('default');
    const length = window.history.length;
    history.navigate('/tribe', { replace: true });
    expect(window.history.length).toBe(length);
    expect(window.location.pathname).toBe('/tribe');
    window.history.replaceState(null, '', '/mcp');
    window.dispatchEvent(new PopStateEvent('popstate'));
    expect(history.location).toMatchObject({ pathname: '/mcp', key: 'default' });
    expect(changes).toBe(3);
    stop();
    history.navigate('/');
    expect(changes).toBe(3);
  });
});

describe('Link', () => {
  function renderLink(props: Partial<Parameters<typeof Link>[0]> = {}) {
    const history = createMemoryHistory(['/']);
    render(
      <Router history={history}>
        <Link to="/about" {...props}>
          About
        </Link>
        <Where />
      </Router>,
    );
    return { history, link: screen.getByRole('link', { name: 'About' }) };
  }

  it('navigates inside the app on a plain click', () => {
    const { history, link } = renderLink();
    expect(link).toHaveAttribute('href', '/about');
    fireEvent.click(link);
    expect(history.location.pathname).toBe('/about');
    expect(screen.getByTestId('where')).toHaveTextContent('/about');
  });

  it('leaves modified clicks, other targets, other buttons and external URLs to the browser', () => {
    const { history, link } = renderLink();
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      const notCancelled = fireEvent.click(link, init);
      expect(notCancelled).toBe(true);
    }
    expect(history.location.pathname).toBe('/');
  });

  it('does not handle a link that opens a new tab', () => {
    const { history, link } = renderLink({ target: '_blank' });
    expect(fireEvent.click(link)).toBe(true);
    expect(history.location.pathname).toBe('/');
  });

  it('lets an onClick handler cancel the navigation', () => {
    const { history, link } = renderLink({ onClick: (e) => e.preventDefault() });
    fireEvent.click(link);
    expect(history.location.pathname).toBe('/');
  });

  it('replaces the entry when asked', () => {
    const { history, link } = renderLink({ replace: true });
    fireEvent.click(link);
    history.go(-1);
    expect(history.location.pathname).toBe('/about');
  });

  it('does not route external URLs', () => {
    const history = createMemoryHistory(['/']);
    render(
      <Router history={history}>
        <Link to="https://example.com/x">Out</Link>
      </Router>,
    );
    expect(fireEvent.click(screen.getByRole('link', { name: 'Out' }))).toBe(true);
    expect(history.location.pathname).toBe('/');
  });
});

describe('NavLink', () => {
  it('marks the current page, below-paths unless end, and never / for other pages', () => {
    expect(isActivePath('/about', '/about')).toBe(true);
    expect(isActivePath('/about/', '/about', true)).toBe(true);
    expect(isActivePath('/About', '/about')).toBe(false);
    expect(isActivePath('/about/team', '/about')).toBe(true);
    expect(isActivePath('/about/team', '/about', true)).toBe(false);
    expect(isActivePath('/aboutx', '/about')).toBe(false);
    expect(isActivePath('/about', '/')).toBe(false);
    expect(isActivePath('/', '/', true)).toBe(true);
    expect(isActivePath('/auth', '/auth?tab=signup')).toBe(true);
  });

  it('renders aria-current and the class and children for its state', () => {
    render(
      <Router history={createMemoryHistory(['/about'])}>
        {['/about', '/tribe'].map((to) => (
          <NavLink key={to} to={to} className={({ isActive }) => (isActive ? 'on' : 'off')}>
            {({ isActive }) => `${to}${isActive ? ' (here)' : ''}`}
          </NavLink>
        ))}
      </Router>,
    );
    const here = screen.getByRole('link', { name: '/about (here)' });
    expect(here).toHaveAttribute('aria-current', 'page');
    expect(here).toHaveClass('on');
    const other = screen.getByRole('link', { name: '/tribe' });
    expect(other).not.toHaveAttribute('aria-current');
    expect(other).toHaveClass('off');
  });
});

describe('hooks', () => {
  it('useSearchParams reads and replaces the query, keeping the path', () => {
    const history = createMemoryHistory(['/', '/members?tab=cohort&x=1#top']);
    function Params() {
      const [params, setParams] = useSearchParams();
      return (
        <button
          type="button"
          onClick={() => {
            const next = new URLSearchParams(params);
            next.delete('x');
            setParams(next, { replace: true });
          }}
        >
          {params.get('tab')}
        </button>
      );
    }
    render(
      <Router history={history}>
        <Params />
        <Where />
      </Router>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'cohort' }));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/members\?tab=cohort$/);
    history.go(-1);
    expect(history.location.pathname).toBe('/');
  });

  it('useSearchParams with nothing left clears the query', () => {
    const history = createMemoryHistory(['/?goal=true']);
    function Clear() {
      const [, setParams] = useSearchParams();
      return (
        <button type="button" onClick={() => setParams({})}>
          clear
        </button>
      );
    }
    render(
      <Router history={history}>
        <Clear />
      </Router>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'clear' }));
    expect(history.location).toMatchObject({ pathname: '/', search: '' });
  });

  it('useNavigate goes to paths and back through history', () => {
    const history = createMemoryHistory(['/']);
    function Buttons() {
      const navigate = useNavigate();
      return (
        <>
          <button type="button" onClick={() => navigate('/auth?tab=signup')}>
            go
          </button>
          <button type="button" onClick={() => navigate(-1)}>
            back
          </button>
        </>
      );
    }
    render(
      <Router history={history}>
        <Buttons />
        <Where />
      </Router>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'go' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/auth?tab=signup');
    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
  });

  it('re-renders on a navigation made before the router subscribed', async () => {
    const history = createMemoryHistory(['/']);
    // A child's layout effect runs before the router's own, that is before it subscribes.
    function NavigateOnMount() {
      const navigate = useNavigate();
      useLayoutEffect(() => navigate('/about'), [navigate]);
      return null;
    }
    render(
      <Router history={history}>
        <NavigateOnMount />
        <Where />
      </Router>,
    );
    await act(async () => {});
    expect(screen.getByTestId('where')).toHaveTextContent('/about');
  });

  it('hooks outside a router fail loudly', () => {
    expect(() => render(<Where />)).toThrow(/inside a Router/);
  });
});

describe('StaticRouter and BrowserRouter', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('StaticRouter renders the given location and refuses to navigate', () => {
    function Try() {
      const navigate = useNavigate();
      return (
        <button type="button" onClick={() => expect(() => navigate('/x')).toThrow(/rendering/)}>
          try
        </button>
      );
    }
    render(
      <StaticRouter location="/booking?from=home">
        <Where />
        <Try />
      </StaticRouter>,
    );
    expect(screen.getByTestId('where')).toHaveTextContent('/booking?from=home');
    fireEvent.click(screen.getByRole('button', { name: 'try' }));
  });

  it('BrowserRouter follows the address bar', () => {
    window.history.replaceState(null, '', '/projects');
    render(
      <BrowserRouter>
        <Link to="/mcp">MCP</Link>
        <Where />
      </BrowserRouter>,
    );
    expect(screen.getByTestId('where')).toHaveTextContent('/projects');
    fireEvent.click(screen.getByRole('link', { name: 'MCP' }));
    expect(window.location.pathname).toBe('/mcp');
    expect(screen.getByTestId('where')).toHaveTextContent('/mcp');
  });
});
