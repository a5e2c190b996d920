/**
 * The app's client-side router. The site has a fixed table of about fifteen paths and needs only
 * links, the current location, programmatic navigation and the query string; a general routing
 * library cost 12 KB of gzipped JavaScript on every first visit, a fifth of the home page's budget
 * (bench/RESULTS.md). History is the browser's own; navigations render in a transition, so a page
 * whose code is still loading keeps the previous page on screen instead of flashing a spinner.
 */
import {
  type AnchorHTMLAttributes,
  createContext,
  type MouseEvent,
  type ReactNode,
  startTransition,
  use,
  useLayoutEffect,
  useMemo,
  useState,
} from 'react';

/** Where the app is: the parts of a URL the pages read, plus a key per history entry. */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** Unique per history entry; `default` for the entry the tab arrived on. */
  key: string;
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

/** A source of locations: the browser's history, a fixed path when prerendering, or a list in tests. */
export interface History {
  readonly location: Location;
  /** Goes to `to` (absolute, relative or query-only) and notifies listeners. */
  navigate(to: string, options?: NavigateOptions): void;
  /** Moves through history, like the browser's back and forward buttons. */
  go(delta: number): void;
  /** Calls `listener` after every location change; returns the unsubscribe function. */
  listen(listener: () => void): () => void;
}

const origin = 'http://app.invalid';

/** Resolves `to` against the current location the way a link in the page would. */
function resolve(to: string, from: Location): Location {
  const url = new URL(to, `${origin}${from.pathname}${from.search}${from.hash}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash, key: newKey() };
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

function href(location: Location): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** Parses a path such as `/auth?tab=signup` into a location. */
function parse(path: string, key: string): Location {
  const url = new URL(path, origin);
  return { pathname: url.pathname, search: url.search, hash: url.hash, key };
}

/** True when `to` leaves the app (another origin or scheme), so a link must load it normally. */
function isExternal(to: string): boolean {
  return /^[a-z][a-z\d+.-]*:|^\/\//i.test(to);
}

/** The browser's session history. The entry's key lives in `history.state`, so it survives reloads. */
export function createBrowserHistory(win: Window = window): History {
  const listeners = new Set<() => void>();
  const read = (): Location => {
    const state: unknown = win.history.state;
    const key =
      typeof state === 'object' && state !== null && 'key' in state && typeof state.key === 'string'
        ? state.key
        : 'default';
    const { pathname, search, hash } = win.location;
    return { pathname, search, hash, key };
  };
  let location = read();
  const notify = () => {
    location = read();
    for (const listener of listeners) listener();
  };
  win.addEventListener('popstate', notify);
  return {
    get location() {
      return location;
    },
    navigate(to, options = {}) {
      const next = resolve(to, location);
      const state = { key: next.key };
      if (options.replace) win.history.replaceState(state, '', href(next));
      else win.history.pushState(state, '', href(next));
      notify();
    },
    go(delta) {
      win.history.go(delta);
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A history kept in memory, for tests: starts at `entries[index]`. */
export function createMemoryHistory(
  entries: string[] = ['/'],
  index = entries.length - 1,
): History {
  const stack = entries.map((entry, i) => parse(entry, i === 0 ? 'default' : newKey()));
  let current = Math.min(Math.max(index, 0), stack.length - 1);
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  return {
    get location() {
      return stack[current] as Location;
    },
    navigate(to, options = {}) {
      const next = resolve(to, stack[current] as Location);
      if (options.replace) stack[current] = next;
      else {
        stack.splice(current + 1, stack.length, next);
        current += 1;
      }
      notify();
    },
    go(delta) {
      const target = Math.min(Math.max(current + delta, 0), stack.length - 1);
      if (target === current) return;
      current = target;
      notify();
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A history fixed at one path, for rendering pages to HTML at build time. */
function createStaticHistory(path: string): History {
  const location = parse(path, 'default');
  const refuse = () => {
    throw new Error(`cannot navigate while rendering ${path} to HTML`);
  };
  return { location, navigate: refuse, go: refuse, listen: () => () => {} };
}

interface RouterValue {
  location: Location;
  history: History;
}

const RouterContext = createContext<RouterValue | null>(null);

function useRouter(): RouterValue {
  const value = use(RouterContext);
  if (!value) throw new Error('router hooks and links must be rendered inside a Router');
  return value;
}

/** Provides `history`'s location to the tree below and re-renders it on every change. */
export function Router({ history, children }: { history: History; children: ReactNode }) {
  const [location, setLocation] = useState(history.location);
  useLayoutEffect(() => {
    const sync = () => startTransition(() => setLocation(history.location));
    // A navigation between the first render and this effect would otherwise be missed.
    sync();
    return history.listen(sync);
  }, [history]);
  const value = useMemo(() => ({ location, history }), [location, history]);
  return <RouterContext value={value}>{children}</RouterContext>;
}

/** The router of the running app, over the browser's history. */
export function BrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(() => createBrowserHistory());
  return <Router history={history}>{children}</Router>;
}

/** The router used when prerendering: always at `location`. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const history = useMemo(() => createStaticHistory(location), [location]);
  return <Router history={history}>{children}</Router>;
}

/** The current location. */
export function useLocation(): Location {
  return useRouter().location;
}

/** Navigates to a path, or by a number of history entries (`-1` is back). */
export type Navigate = (to: string | number, options?: NavigateOptions) => void;

/** A function that navigates. */
export function useNavigate(): Navigate {
  const { history } = useRouter();
  return useMemo<Navigate>(
    () => (to, options) => {
      if (typeof to === 'number') history.go(to);
      else history.navigate(to, options);
    },
    [history],
  );
}

/** Sets the query string; the path stays, the hash is dropped. */
export type SetSearchParams = (
  next: URLSearchParams | Record<string, string>,
  options?: NavigateOptions,
) => void;

/** The current query string, and a function that replaces it. */
export function useSearchParams(): [URLSearchParams, SetSearchParams] {
  const { location, history } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useMemo<SetSearchParams>(
    () => (next, options) => {
      const query = new URLSearchParams(next).toString();
      history.navigate(`${history.location.pathname}${query ? `?${query}` : ''}`, options);
    },
    [history],
  );
  return [params, set];
}

type AnchorProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>;

export interface LinkProps extends AnchorProps {
  /** Where the link goes: an app path, or an external URL that loads normally. */
  to: string;
  replace?: boolean;
}

/** The parts of a click, React's or the browser's, that tell whether it opens a new tab. */
type ClickLike = Pick<
  globalThis.MouseEvent,
  'defaultPrevented' | 'button' | 'metaKey' | 'altKey' | 'ctrlKey' | 'shiftKey'
>;

/** True for a plain left click the app should handle itself (not one that opens a new tab). */
function isPlainClick(event: ClickLike, anchor: Element): boolean {
  const target = anchor.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) &&
    (!target || target === '_self')
  );
}

/**
 * The app path a browser click on `anchor` should navigate to, as a {@link Link} would, or null
 * when the browser should follow it (another site, a new tab, a download): for links in server
 * HTML that React has not hydrated yet.
 */
export function appLinkPath(event: ClickLike, anchor: HTMLAnchorElement): string | null {
  const to = anchor.getAttribute('href');
  if (to === null || isExternal(to) || anchor.hasAttribute('download')) return null;
  return isPlainClick(event, anchor) ? to : null;
}

/** An anchor that navigates inside the app without reloading the page. */
export function Link({ to, replace, onClick, ...rest }: LinkProps) {
  const { history } = useRouter();
  const external = isExternal(to);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (external || !isPlainClick(event, event.currentTarget)) return;
    event.preventDefault();
    history.navigate(to, { replace });
  };
  return <a {...rest} href={to} onClick={handleClick} />;
}

export interface NavLinkProps extends Omit<LinkProps, 'className' | 'children'> {
  /** Active only on the exact path, not on paths below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
  children?: ReactNode | ((state: { isActive: boolean }) => ReactNode);
}

/** True when `pathname` is `to`, or (unless `end`) a path below it. */
export function isActivePath(pathname: string, to: string, end = false): boolean {
  const path = to.split(/[?#]/)[0] || '/';
  const here = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (here === path) return true;
  return !end && path !== '/' && here.startsWith(`${path}/`);
}

/** A link that knows whether it points at the current page, and says so with `aria-current`. */
export function NavLink({ end, className, children, ...rest }: NavLinkProps) {
  const { location } = useRouter();
  const isActive = isActivePath(location.pathname, rest.to, end);
  return (
    <Link
      {...rest}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
    >
      {typeof children === 'function' ? children({ isActive }) : children}
    </Link>
  );
}
