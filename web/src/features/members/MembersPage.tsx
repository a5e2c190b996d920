import { QueryClientProvider } from '@tanstack/react-query';
import { LogOut, MessageCircle, RefreshCw, Users } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ExternalLink } from '@/components/ui/external-link';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api';
import type { MembersOverview, User } from '@/lib/api-types/web';
import { signOut } from '@/lib/auth-api';
import { pluralNoun } from '@/lib/plural';
import { createQueryClient } from '@/lib/query';
import { useLocation, useNavigate, useSearchParams } from '@/lib/router';
import { session, useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { AdminTab } from './AdminTab';
import { useMembersOverview } from './api/get-members-overview';
import { useLiveUpdates } from './api/live-updates';
import {
  syncSubscription,
  useReadSubscription,
  useRefreshSubscription,
} from './api/refresh-subscription';
import { useResendConfirmation } from './api/resend-confirmation';
import { AUTO_REFRESH_MS, pollCheckout } from './billing';
import { CohortTab } from './CohortTab';
import { DashboardTab } from './DashboardTab';
import { DirectoryTab } from './DirectoryTab';
import { LevelsButton } from './LevelDialog';
import { ProfileTab } from './ProfileTab';
import { ProjectsTab } from './ProjectsTab';
import { LoadingBlock, Skeleton } from './parts';
import { SubscribeButton } from './SubscriptionActions';
import { useAdoptTimeZone } from './use-adopt-time-zone';

/** Query flags that a checkout return leaves on /members (spec §2). */
const CHECKOUT_FLAGS = ['success', 'canceled', 'awaiting_subscription'] as const;
/** Flags this page reads once and then removes from the address. */
const ONE_TIME_FLAGS = [...CHECKOUT_FLAGS, 'confirmed', 'confirm_error'] as const;

/** Where a visitor without a session goes, keeping checkout flags (spec §2). */
export function authRedirect(params: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const flag of CHECKOUT_FLAGS) {
    const value = params.get(flag);
    if (value !== null) kept.set(flag, value);
  }
  if ([...kept.keys()].length === 0) return '/auth';
  kept.set('return', 'members');
  return `/auth?${kept.toString()}`;
}

function confirmErrorText(code: string): string {
  if (code === 'expired') return 'This confirmation link has expired. Ask for a new one here.';
  if (code === 'used') return 'This confirmation link has already been used.';
  if (code === 'signin') {
    return 'This link confirms another account. Sign out, sign in to that account and open the link again.';
  }
  return 'This confirmation link is not valid.';
}

/**
 * /members: the signed-in members area. It brings its own query client, so TanStack Query loads
 * with this chunk and never with the public pages.
 */
export function MembersPage(slots: MembersSlots) {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <MembersArea {...slots} />
    </QueryClientProvider>
  );
}

/** What other features add to the members area, composed by app/. */
export interface MembersSlots {
  /** Sections of other features for the Admin tab. */
  adminExtra?: ReactNode;
  /**
   * The Community tab (its own feature), given whether the member is an admin and the
   * subscribe button for free members; it also answers `/members/community/{id}`.
   */
  community?: (context: { isAdmin: boolean; subscribe: ReactNode }) => ReactNode;
  /** Shown at the top of the Dashboard tab (the community's pinned announcement). */
  dashboardExtra?: ReactNode;
  /**
   * The Library tab (its own feature), given the same as the Community tab; it also answers
   * `/members/library` and `/members/library/{id}`.
   */
  library?: (context: { isAdmin: boolean; subscribe: ReactNode; levels: ReactNode }) => ReactNode;
  /** Beside the header's buttons (the notification bell). */
  headerExtra?: ReactNode;
  /** Below the Profile tab's own sections. */
  profileExtra?: ReactNode;
}

/** The path prefix of the Community tab and its threads. */
const COMMUNITY_PATH = '/members/community';
/** The path of the Library tab, and the prefix of its items. */
const LIBRARY_PATH = '/members/library';

function MembersArea({
  adminExtra,
  community,
  dashboardExtra,
  headerExtra,
  library,
  profileExtra,
}: MembersSlots) {
  const state = useSession();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const leaving = useRef(false);

  useEffect(() => {
    if (state.status !== 'signed-out' || leaving.current || session.isLeaving()) return;
    navigate(authRedirect(params), { replace: true });
  }, [state.status, params, navigate]);

  useLiveUpdates(state.status === 'signed-in');
  useAdoptTimeZone(state.status === 'signed-in');

  if (state.status !== 'signed-in') {
    return (
      <Page title="Members">
        <LoadingBlock label="Loading the members area…" rows={3} />
      </Page>
    );
  }

  const signOutEverywhere = async () => {
    leaving.current = true;
    try {
      await signOut('global');
    } catch {
      // The global sign-out failed: end at least this browser's session.
      await signOut('local').catch(() => {});
    }
    navigate('/auth?logged_out=true', { replace: true });
    session.signedOut();
  };

  return (
    <SignedInArea
      user={state.user}
      onSignOut={signOutEverywhere}
      adminExtra={adminExtra}
      community={community}
      dashboardExtra={dashboardExtra}
      headerExtra={headerExtra}
      library={library}
      profileExtra={profileExtra}
    />
  );
}

/**
 * Toasts for the one-time flags, then a clean address (spec §4, "Checkout return"). With
 * `success=true` it waits for the subscription Checkout created. The wait belongs to the page, not
 * to the address: removing the flags must not end it, only leaving the page does.
 */
function useOneTimeFlags(
  sync: () => Promise<unknown>,
  read: () => Promise<MembersOverview | undefined>,
) {
  const [params, setParams] = useSearchParams();
  const handled = useRef(false);
  const [waitForCheckout, setWaitForCheckout] = useState(false);
  const calls = useRef({ sync, read });
  calls.current = { sync, read };

  useEffect(() => {
    if (handled.current) return;
    if (!ONE_TIME_FLAGS.some((flag) => params.has(flag))) return;
    handled.current = true;

    if (params.get('confirmed') === 'true') {
      toast.success('Email confirmed', 'Your e-mail address is confirmed. Welcome to the tribe!');
    }
    const confirmError = params.get('confirm_error');
    if (confirmError !== null) toast.error('Error', confirmErrorText(confirmError));
    if (params.get('awaiting_subscription') === 'true') {
      toast.info('Finish checkout', 'Complete your checkout in the new tab, then come back here.');
    }
    if (params.get('canceled') === 'true') {
      toast.error('Checkout canceled', 'Your checkout was canceled. You have not been charged.');
    }
    if (params.get('success') === 'true') {
      toast.success('Subscription successful!', 'Activating your membership…');
      setWaitForCheckout(true);
    }

    const next = new URLSearchParams(params);
    for (const flag of ONE_TIME_FLAGS) next.delete(flag);
    setParams(next, { replace: true });
  }, [params, setParams]);

  useEffect(() => {
    if (!waitForCheckout) return;
    const controller = new AbortController();
    void pollCheckout({
      sync: () => calls.current.sync(),
      read: () => calls.current.read(),
      signal: controller.signal,
    }).then((active) => {
      if (active && !controller.signal.aborted) {
        toast.success('Subscription Active!', 'Welcome to the tribe.');
      }
    });
    return () => controller.abort();
  }, [waitForCheckout]);
}

/** Re-syncs the subscription every 5 minutes while the page is open (spec §9). */
function useAutoRefresh(refresh: () => Promise<unknown>) {
  const latest = useRef(refresh);
  latest.current = refresh;
  useEffect(() => {
    const timer = setInterval(() => {
      void latest.current().catch((error: unknown) => {
        console.warn('subscription refresh failed', error);
      });
    }, AUTO_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
}

function ResendConfirmation() {
  const resend = useResendConfirmation({
    mutationConfig: { onError: (error) => toast.error('Error', errorMessage(error)) },
  });
  if (resend.isSuccess) return <span>A new link is on its way.</span>;
  return (
    <button
      type="button"
      disabled={resend.isPending}
      className="font-medium underline underline-offset-2 hover:text-fg disabled:opacity-60"
      onClick={() => resend.mutate()}
    >
      {resend.isPending ? 'Sending…' : 'Send a new link'}
    </button>
  );
}

function SignedInArea({
  user,
  onSignOut,
  adminExtra,
  community,
  dashboardExtra,
  headerExtra,
  library,
  profileExtra,
}: MembersSlots & {
  user: User;
  onSignOut: () => Promise<void>;
}) {
  const overview = useMembersOverview();
  const [refreshing, setRefreshing] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const inCommunity = community !== undefined && pathname.startsWith(COMMUNITY_PATH);
  const inLibrary =
    library !== undefined && (pathname === LIBRARY_PATH || pathname.startsWith(`${LIBRARY_PATH}/`));
  const [tab, setTab] = useState(inCommunity ? 'community' : inLibrary ? 'library' : 'dashboard');
  // A link to a thread (a notification, a thread's own links) opens the Community tab; one to
  // the library or one of its items (a replay notice, a cited transcript) the Library tab.
  useEffect(() => {
    if (inCommunity) setTab('community');
  }, [inCommunity]);
  useEffect(() => {
    if (inLibrary) setTab('library');
  }, [inLibrary]);
  const changeTab = (next: string) => {
    setTab(next);
    if (next !== 'community' && inCommunity) navigate('/members', { replace: true });
    if (next !== 'library' && inLibrary) navigate('/members', { replace: true });
  };

  const refreshSubscription = useRefreshSubscription();
  const readSubscription = useReadSubscription();
  useOneTimeFlags(syncSubscription, readSubscription);
  useAutoRefresh(refreshSubscription);

  const isSubscriber = overview.data?.is_subscriber ?? user.subscription?.status === 'active';
  const isAdmin = overview.data?.is_admin ?? user.is_admin;
  const capacity = overview.data?.tribe.capacity;
  const name = user.full_name.trim() || user.email;

  const refresh = async () => {
    setRefreshing(true);
    try {
      await refreshSubscription();
    } catch (error) {
      // Refresh errors are only logged (spec §8); the cards keep what they showed.
      console.warn('subscription refresh failed', error);
    } finally {
      setRefreshing(false);
    }
  };

  return (
    <Page title={inLibrary ? 'Library' : 'Members'}>
      <PageHeader
        command="cd ~/members"
        title={
          <>
            Welcome back, <span className="break-words text-term-green">{name}</span>
          </>
        }
        lead="Your dashboard, live sessions, cohort, the tribe's projects and members, and your profile."
      >
        <div className="mt-6 flex flex-wrap gap-3">
          {headerExtra}
          <Button variant="outline" size="sm" onClick={() => void refresh()} disabled={refreshing}>
            <RefreshCw
              size={16}
              aria-hidden="true"
              className={refreshing ? 'motion-safe:animate-spin' : undefined}
            />
            {refreshing ? 'Refreshing…' : 'Refresh subscription'}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            disabled={signingOut}
            onClick={() => {
              setSigningOut(true);
              void onSignOut().finally(() => setSigningOut(false));
            }}
          >
            <LogOut size={16} aria-hidden="true" />
            {signingOut ? 'Signing out…' : 'Sign out'}
          </Button>
        </div>
      </PageHeader>

      {!user.email_confirmed ? (
        <p
          role="status"
          className="mt-6 rounded-md border border-term-amber/50 bg-term-amber/10 px-4 py-3 text-sm text-term-amber"
        >
          Please confirm your e-mail address: we sent you a link when you signed up.{' '}
          <ResendConfirmation />
        </p>
      ) : null}

      <div className="mt-8 grid gap-4 md:grid-cols-2">
        <Card>
          <h2 className="flex items-center gap-2 text-lg font-semibold text-fg">
            <Users size={18} aria-hidden="true" className="text-term-green" />
            Welcome to the Tribe
          </h2>
          <p className="mt-2 text-sm text-muted">
            A small community of builders of AI agent applications. The tribe is limited to{' '}
            {capacity === undefined ? (
              <Skeleton inline className="h-4 w-6 align-middle" />
            ) : (
              <strong className="text-fg">{capacity}</strong>
            )}{' '}
            {pluralNoun(capacity ?? 0, 'member')}, so everyone gets to know each other.
          </p>
        </Card>
        <Card>
          <h2 className="flex items-center gap-2 text-lg font-semibold text-fg">
            <MessageCircle size={18} aria-hidden="true" className="text-term-cyan" />
            Community
          </h2>
          {overview.isPending ? (
            <Skeleton className="mt-3 h-11 w-40" />
          ) : overview.data?.group_chat_url ? (
            // The server sends the invitation to active subscribers and admins only.
            <>
              <p className="mt-2 text-sm text-muted">
                Talk with the other members between sessions in the group chat.
              </p>
              <ExternalLink
                href={overview.data.group_chat_url}
                className={buttonClasses('primary', 'md', 'mt-4')}
              >
                Join the group chat
              </ExternalLink>
            </>
          ) : isSubscriber ? (
            <p className="mt-2 text-sm text-muted">
              The group chat is being set up. Your invitation will come by e-mail and in the next
              live session.
            </p>
          ) : isAdmin ? (
            // Admins get the invitation without a subscription; there is none to give yet.
            <p className="mt-2 text-sm text-muted">
              No group chat is set up yet. Set TRIBE_GROUP_CHAT_URL to the invitation and
              subscribers and admins will find it here.
            </p>
          ) : (
            <>
              <p className="mt-2 text-sm text-muted">
                Subscribers talk with each other between sessions in the group chat.
              </p>
              <SubscribeButton className="mt-4" />
            </>
          )}
        </Card>
      </div>

      <Tabs value={tab} onValueChange={changeTab} className="mt-10">
        {/* On phones every tab stays in view, two or three to a row, none behind a scroll. */}
        <TabsList
          aria-label="Members area"
          phone="grid"
          className={isAdmin ? 'max-sm:grid-cols-2' : 'max-sm:grid-cols-3'}
        >
          <TabsTrigger value="dashboard">Dashboard</TabsTrigger>
          {community ? <TabsTrigger value="community">Community</TabsTrigger> : null}
          {library ? <TabsTrigger value="library">Library</TabsTrigger> : null}
          <TabsTrigger value="cohort">My Cohort</TabsTrigger>
          <TabsTrigger value="projects">Projects</TabsTrigger>
          <TabsTrigger value="directory">Directory</TabsTrigger>
          <TabsTrigger value="profile">Profile</TabsTrigger>
          {isAdmin ? (
            <TabsTrigger value="admin">
              Admin <Badge tone="amber">admin</Badge>
            </TabsTrigger>
          ) : null}
        </TabsList>
        <TabsContent value="dashboard">
          {dashboardExtra}
          <DashboardTab
            overview={overview}
            isSubscriber={isSubscriber}
            isAdmin={isAdmin}
            onRefresh={refreshSubscription}
          />
        </TabsContent>
        {community ? (
          <TabsContent value="community">
            {community({ isAdmin, subscribe: <SubscribeButton /> })}
          </TabsContent>
        ) : null}
        {library ? (
          <TabsContent value="library">
            {library({
              isAdmin,
              subscribe: <SubscribeButton />,
              levels: <LevelsButton canSuggest={isSubscriber || isAdmin} />,
            })}
          </TabsContent>
        ) : null}
        <TabsContent value="cohort">
          <CohortTab />
        </TabsContent>
        <TabsContent value="projects">
          <ProjectsTab isAdmin={isAdmin} />
        </TabsContent>
        <TabsContent value="directory">
          <DirectoryTab canSee={isSubscriber || isAdmin} />
        </TabsContent>
        <TabsContent value="profile">
          <ProfileTab isAdmin={isAdmin} />
          {profileExtra ? <div className="mt-6">{profileExtra}</div> : null}
        </TabsContent>
        {isAdmin ? (
          <TabsContent value="admin">
            <AdminTab extra={adminExtra} />
          </TabsContent>
        ) : null}
      </Tabs>
    </Page>
  );
}
