import { type ComponentType, lazy } from 'react';
import { useLocation } from '@/lib/router';
import { useDocumentHead } from './document-head';
import { RootLayout } from './layout/RootLayout';

/** Loads a named page export as its own chunk. */
function lazyPage<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
) {
  return lazy(async () => {
    const module = await load();
    return { default: module[name] as ComponentType };
  });
}

// Home and the 404 page are chunks too, as every other page, so the entry holds only the frame
// every page shares (layout, router, session): a prerendered page is on screen before any page's
// code arrives, and hydrates when its chunk has.
export const HomeRoute = lazyPage(() => import('./pages/home'), 'HomeRoute');
export const NotFoundRoute = lazyPage(
  () => import('@/features/errors/NotFoundPage'),
  'NotFoundPage',
);
const AboutPage = lazyPage(() => import('@/features/marketing/AboutPage'), 'AboutPage');
const ProjectsPage = lazyPage(() => import('@/features/marketing/ProjectsPage'), 'ProjectsPage');
const BookingPage = lazyPage(() => import('./pages/booking'), 'BookingRoute');
const McpPage = lazyPage(() => import('@/features/mcp/McpPage'), 'McpPage');
const TribeRoute = lazyPage(() => import('./pages/tribe'), 'TribeRoute');
const AuthPage = lazyPage(() => import('@/features/auth/AuthPage'), 'AuthPage');
const MembersRoute = lazyPage(() => import('./pages/members'), 'MembersRoute');
// Admins only: its own chunk, so no public page carries the charts.
const InsightsPage = lazyPage(() => import('@/features/insights/InsightsPage'), 'InsightsPage');
const AgentTestPage = lazyPage(() => import('@/features/agent/AgentTestPage'), 'AgentTestPage');
const GoalPage = lazyPage(() => import('@/features/goal/GoalPage'), 'GoalPage');
const LeanAgenticPage = lazyPage(
  () => import('@/features/showcase/LeanAgenticPage'),
  'LeanAgenticPage',
);
const MidstreamerPage = lazyPage(
  () => import('@/features/showcase/MidstreamerPage'),
  'MidstreamerPage',
);
const AgenticPaymentsPage = lazyPage(
  () => import('@/features/showcase/AgenticPaymentsPage'),
  'AgenticPaymentsPage',
);
const AiDefencePage = lazyPage(() => import('@/features/showcase/AiDefencePage'), 'AiDefencePage');
const AimdsPage = lazyPage(() => import('@/features/showcase/AimdsPage'), 'AimdsPage');
// /book/{type} and /bookings/{id}: one chunk for the booking flow, which tells them apart.
const BookingPages = lazyPage(() => import('./pages/book'), 'BookingPages');

/** Every page route of the single-page app (the spec's route table, minus server-only files). */
export const pageRoutes: ReadonlyArray<{ path: string; Component: ComponentType }> = [
  { path: '/', Component: HomeRoute },
  { path: '/about', Component: AboutPage },
  { path: '/projects', Component: ProjectsPage },
  { path: '/mcp', Component: McpPage },
  { path: '/tribe', Component: TribeRoute },
  { path: '/booking', Component: BookingPage },
  { path: '/auth', Component: AuthPage },
  { path: '/members', Component: MembersRoute },
  // The members' library (issue 32): its tab, opened by a link.
  { path: '/members/library', Component: MembersRoute },
  { path: '/admin/insights', Component: InsightsPage },
  { path: '/agent-test', Component: AgentTestPage },
  { path: '/goal', Component: GoalPage },
  { path: '/lean-agentic', Component: LeanAgenticPage },
  { path: '/midstreamer', Component: MidstreamerPage },
  { path: '/agentic-payments', Component: AgenticPaymentsPage },
  { path: '/ai-defence', Component: AiDefencePage },
  { path: '/aimds', Component: AimdsPage },
  // The offers of content/services.json booked on the site ("booking": "native").
  { path: '/book/session-15', Component: BookingPages },
  { path: '/book/session-30', Component: BookingPages },
  { path: '/book/session-60', Component: BookingPages },
  { path: '/book/private', Component: BookingPages },
  { path: '/book/group', Component: BookingPages },
];

/**
 * Pages under a path prefix, one per id, rendered in the browser only (the server serves the app
 * shell for them: internal/web/routes.go appPrefixes).
 */
export const prefixRoutes: ReadonlyArray<{ prefix: string; Component: ComponentType }> = [
  { prefix: '/bookings/', Component: BookingPages },
  // A community thread's deep link: the members area opens it in the Community tab.
  { prefix: '/members/community/', Component: MembersRoute },
  // A library item's deep link (`?t=` starts playback there): the Library tab opens it.
  { prefix: '/members/library/', Component: MembersRoute },
];

/**
 * Finds the page for a path: exact and case-sensitive, as the server decides which paths are
 * pages (it answers 404 for `/About`), ignoring a trailing slash; NotFoundRoute otherwise.
 */
export function pageFor(pathname: string): ComponentType {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = pageRoutes.find((route) => route.path === path)?.Component;
  if (exact) return exact;
  const prefixed = prefixRoutes.find(
    (route) => path.startsWith(route.prefix) && /^[^/]+$/.test(path.slice(route.prefix.length)),
  );
  return prefixed?.Component ?? NotFoundRoute;
}

/**
 * Renders the current location's page inside the shared layout, and keeps the document's head
 * tags that page's. `prerendered`: the page was hydrated from its prerendered HTML, whose head
 * is already right.
 */
export function AppRoutes({ prerendered = false }: { prerendered?: boolean }) {
  const { pathname } = useLocation();
  useDocumentHead(pathname, prerendered);
  const Page = pageFor(pathname);
  return (
    <RootLayout>
      <Page />
    </RootLayout>
  );
}
