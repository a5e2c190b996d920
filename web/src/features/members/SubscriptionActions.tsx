/** Subscribe (Stripe Checkout) and Manage (the Stripe customer portal) for the members area. */
import { ExternalLink as ExternalIcon, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button, type ButtonSize, type ButtonVariant, buttonClasses } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api';
import { Link } from '@/lib/router';
import { toast } from '@/lib/toast';
import { useMembersOverview } from './api/get-members-overview';
import { useOpenBillingPortal } from './api/open-billing-portal';
import { useStartCheckout } from './api/start-checkout';
import { watchPortalReturn } from './billing';
import { goToCheckout, openPendingTab, showInTab } from './navigation';
import { MemberDialog } from './parts';

/** What the server says when online payment is off (docs/billing.md); shown before asking it. */
export const PAYMENTS_OFF_MESSAGE =
  "Online payment is not set up yet. Join the wait list and we'll tell you when spots open up.";

/** Why Subscribe cannot take the member to checkout: the dialog says so and offers the wait list. */
interface Blocked {
  title: string;
  message: string;
}

export interface SubscribeButtonProps {
  label?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}

/**
 * Starts a Stripe Checkout and sends the browser to it. When online payment is off or the tribe
 * is full it takes no one anywhere: a dialog says so in plain words and offers the wait list.
 */
export function SubscribeButton({
  label = 'Subscribe to Join',
  variant = 'primary',
  size = 'md',
  className,
}: SubscribeButtonProps) {
  const overview = useMembersOverview();
  const [blocked, setBlocked] = useState<Blocked | null>(null);
  const [leaving, setLeaving] = useState(false);
  const checkout = useStartCheckout({
    mutationConfig: {
      onSuccess: (url) => {
        setLeaving(true);
        goToCheckout(url);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'billing_unavailable') {
          setBlocked({ title: 'Payments are not set up yet', message: error.message });
        } else if (error instanceof ApiError && error.code === 'at_capacity') {
          setBlocked({ title: 'The tribe is full', message: error.message });
        } else if (error instanceof ApiError && error.code === 'already_subscribed') {
          toast.info('Already a member', error.message);
        } else if (error instanceof ApiError && error.status === 401) {
          toast.error('Error', 'You must be logged in to subscribe.');
        } else {
          toast.error('Could not start checkout', errorMessage(error));
        }
      },
    },
  });
  const busy = checkout.isPending || leaving;

  const start = () => {
    if (overview.data && !overview.data.tribe.payments_enabled) {
      setBlocked({ title: 'Payments are not set up yet', message: PAYMENTS_OFF_MESSAGE });
      return;
    }
    checkout.mutate();
  };

  return (
    <>
      <Button variant={variant} size={size} className={className} disabled={busy} onClick={start}>
        {busy ? (
          <Loader2 size={16} aria-hidden="true" className="motion-safe:animate-spin" />
        ) : null}
        {busy ? 'Opening checkout…' : label}
      </Button>
      <MemberDialog
        open={blocked !== null}
        onOpenChange={(open) => {
          if (!open) setBlocked(null);
        }}
        windowTitle="~ $ subscribe"
        title={blocked?.title ?? ''}
        description={blocked?.message}
      >
        <p className="text-sm text-muted">
          Nothing has been charged. The wait list is on the tribe page: leave your name and e-mail
          there and you will hear first when you can join.
        </p>
        <div className="mt-5 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setBlocked(null)}>
            Close
          </Button>
          <Link to="/tribe" className={buttonClasses('primary')}>
            Join the wait list
          </Link>
        </div>
      </MemberDialog>
    </>
  );
}

/**
 * Opens the Stripe customer portal in a new tab, then keeps the subscription fresh while the
 * member is away (spec §4, "Billing portal").
 */
export function ManageButton({ onRefresh }: { onRefresh: () => Promise<unknown> }) {
  const stopWatching = useRef<(() => void) | null>(null);
  const refresh = useRef(onRefresh);
  refresh.current = onRefresh;
  useEffect(() => () => stopWatching.current?.(), []);

  // The tab opened on the click, waiting for the portal's URL. The callbacks live on the
  // mutation, not on one call, so a 401 that signs the page out still says why.
  const pendingTab = useRef<Window | null>(null);
  const portal = useOpenBillingPortal({
    mutationConfig: {
      onSuccess: (url) => {
        const tab = pendingTab.current;
        pendingTab.current = null;
        if (!url) {
          tab?.close();
          toast.error('Error', 'No portal URL returned');
          return;
        }
        showInTab(tab, url);
        stopWatching.current?.();
        stopWatching.current = watchPortalReturn(() => {
          void refresh.current().catch((error: unknown) => {
            console.warn('subscription refresh failed', error);
          });
        });
      },
      onError: (error) => {
        pendingTab.current?.close();
        pendingTab.current = null;
        if (error instanceof ApiError && error.status === 401) {
          toast.error('Error', 'You must be logged in to manage your subscription');
        } else if (error instanceof ApiError && error.status < 500 && error.status > 0) {
          toast.error('Error', error.message);
        } else {
          toast.error('Error', 'Failed to open subscription management');
        }
      },
    },
  });
  const open = () => {
    pendingTab.current = openPendingTab();
    portal.mutate();
  };

  return (
    <Button variant="outline" onClick={open} disabled={portal.isPending}>
      {portal.isPending ? (
        <Loader2 size={16} aria-hidden="true" className="motion-safe:animate-spin" />
      ) : (
        <ExternalIcon size={16} aria-hidden="true" />
      )}
      Manage
    </Button>
  );
}
