import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CalendarPlus, Ticket } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { ApiError, errorMessage } from '@/lib/api';
import { createQueryClient } from '@/lib/query';
import { Link, useSearchParams } from '@/lib/router';
import { useSession } from '@/lib/session';
import { type CreditsOwner, creditsLink, useCredits } from './api/credits';
import type { Credit } from './api/types';
import { POLL_FOR_MS, POLL_MS } from './status';
import { formatDay } from './time';

/** Where a credit books a call of its type: the type's page, told to pay with a credit. */
export function bookWithCreditHref(type: string, link: { email: string; token: string } | null) {
  const q = new URLSearchParams({ credit: '1' });
  if (link) {
    q.set('email', link.email);
    q.set('credit_token', link.token);
  }
  return `/book/${encodeURIComponent(type)}?${q.toString()}`;
}

/**
 * /bookings/credits: the credits of the address a credits mail went to (`?email=&token=`), or
 * of the signed-in member, with a link to book a call with each package's credits. Back from
 * paying for a package (`&paid=1`) it waits for the payment's word.
 */
export function CreditsPage({ client }: { client?: QueryClient }) {
  const [own] = useState(() => client ?? createQueryClient());
  return (
    <QueryClientProvider client={own}>
      <CreditsView />
    </QueryClientProvider>
  );
}

function CreditsView() {
  const [params] = useSearchParams();
  const session = useSession();
  const link = creditsLink(params);
  const paid = params.get('paid') === '1';
  const owner: CreditsOwner | null =
    link ?? (session.status === 'signed-in' ? { signedIn: true } : null);
  const [since] = useState(() => Date.now());
  const query = useCredits(owner, {
    // Back from Checkout, the credits come with the payment's webhook: look every 2 s for 2 minutes.
    refetchInterval: paid ? () => (Date.now() - since < POLL_FOR_MS ? POLL_MS : false) : false,
  });
  const credits = query.data?.credits ?? [];
  const waiting =
    paid && query.isSuccess && credits.length === 0 && Date.now() - since < POLL_FOR_MS;

  let body: ReactNode;
  if (!owner) {
    body =
      session.status === 'unknown' ? (
        <p aria-busy="true" className="text-sm text-muted">
          Loading your credits…
        </p>
      ) : (
        <Card>
          <p className="text-fg">Open the link in your credits e-mail to see your credits.</p>
          <p className="mt-2 text-sm text-muted">
            If you bought while signed in, or with your account's address,{' '}
            <Link to="/auth" className="text-term-cyan underline underline-offset-4">
              sign in
            </Link>{' '}
            to see them here.
          </p>
        </Card>
      );
  } else if (query.isPending) {
    body = (
      <p aria-busy="true" className="text-sm text-muted">
        Loading your credits…
      </p>
    );
  } else if (query.isError) {
    body =
      query.error instanceof ApiError && query.error.status === 404 ? (
        <div role="alert" className="rounded-md border border-term-red/50 p-4 text-sm text-fg">
          This credits link is not valid. Please use the link in your latest credits e-mail.
        </div>
      ) : (
        <div role="alert" className="rounded-md border border-term-red/50 p-4 text-sm text-fg">
          <p>Your credits could not be loaded: {errorMessage(query.error)}</p>
          <Button variant="outline" size="sm" className="mt-3" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      );
  } else if (credits.length === 0) {
    body = waiting ? (
      <p role="status" className="rounded-md border border-ink-600 bg-ink-900 p-4 text-sm text-fg">
        Thank you! Your payment is being confirmed; your credits appear here in a moment.
      </p>
    ) : (
      <Card>
        <p className="text-fg">You have no credits to book with right now.</p>
        <p className="mt-2 text-sm text-muted">
          {paid
            ? 'Your payment has not been confirmed yet. Your credits e-mail has the link to this page once it is.'
            : 'Credits come with a session package and last until the date shown when you bought it.'}{' '}
          <Link to="/booking#packages" className="text-term-cyan underline underline-offset-4">
            See the packages
          </Link>
        </p>
      </Card>
    );
  } else {
    body = (
      <>
        {paid ? (
          <p
            role="status"
            className="mb-5 rounded-md border border-term-green/50 bg-term-green/10 p-4 text-sm text-fg"
          >
            Thank you! Your credits are ready. Book a call with one below.
          </p>
        ) : null}
        <ul className="grid gap-5 md:grid-cols-2">
          {credits.map((c) => (
            <li key={`${c.package}-${c.expires_at}`} className="min-w-0">
              <CreditCard credit={c} link={link} />
            </li>
          ))}
        </ul>
      </>
    );
  }

  return (
    <Page title="Your credits">
      <PageHeader
        command="credits --balance"
        title="Your credits"
        lead={
          query.data?.email
            ? `Session packages bought with ${query.data.email}: each credit books one call, confirmed at once with nothing to pay.`
            : 'Each credit of a session package books one call, confirmed at once with nothing to pay.'
        }
      />
      <div className="mt-8">{body}</div>
      <p className="mt-8 text-sm text-muted">
        A call booked with a credit and cancelled before the cut-off gives the credit back; moving
        it keeps it.
      </p>
    </Page>
  );
}

function CreditCard({
  credit,
  link,
}: {
  credit: Credit;
  link: { email: string; token: string } | null;
}) {
  // The last day of the owner's calendar, as the mails say it: the credits lapse at the owner's
  // midnight, which in the visitor's zone is an odd hour of another day.
  const until = formatDay(credit.last_day);
  return (
    <Card data-testid="credit-card" className="flex h-full flex-col">
      <p className="flex items-center gap-1.5 font-mono text-sm text-term-cyan">
        <Ticket size={14} aria-hidden="true" />
        {credit.type_name}
      </p>
      <h2 className="mt-2 text-lg font-semibold text-fg">{credit.name}</h2>
      <p className="mt-2 font-mono text-3xl font-bold text-fg">
        {credit.remaining}
        <span className="text-base font-normal text-muted">
          {' '}
          of {credit.count} credit{credit.count === 1 ? '' : 's'} left
        </span>
      </p>
      <p className="mt-1 text-sm text-muted">Use them by {until}.</p>
      <div className="mt-auto pt-5">
        {credit.remaining > 0 ? (
          <Link
            to={bookWithCreditHref(credit.type, link)}
            className={buttonClasses(
              'primary',
              'md',
              'h-auto min-h-11 w-full py-2 text-center whitespace-normal',
            )}
          >
            <CalendarPlus size={16} aria-hidden="true" />
            Book a {credit.type_name} with a credit
          </Link>
        ) : (
          <p className="text-sm text-muted">All credits of this package are used.</p>
        )}
      </div>
    </Card>
  );
}
