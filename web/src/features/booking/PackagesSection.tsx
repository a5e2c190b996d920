import { QueryClientProvider } from '@tanstack/react-query';
import { Package as PackageIcon } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormProblem } from '@/components/ui/form-problem';
import { TextField } from '@/components/ui/text-field';
import { formatPrice } from '@/content/format';
import { siteContent } from '@/content/site';
import type { SessionPackage } from '@/content/types';
import { ApiError, errorMessage } from '@/lib/api';
import { createQueryClient } from '@/lib/query';
import { Link, useSearchParams } from '@/lib/router';
import { useSession } from '@/lib/session';
import { useHydrated } from '@/lib/use-hydrated';
import { useBuyPackage, usePackages } from './api/credits';
import { RetryLaterError, retryText } from './api/request';
import { findOffer, validityText } from './offers';
import { formField, validateBooking } from './validate';

export interface PackagesSectionProps {
  /** Leaves the site for Stripe Checkout (tests replace it). */
  goToCheckout?: (url: string) => void;
}

/**
 * The session packages of /booking: each card from the content file (prerendered with its price
 * and member price), and once the page runs a buy form that goes to Stripe Checkout. The server
 * decides the price: a signed-in tribe member is told they pay the member price.
 */
export function PackagesSection({ goToCheckout }: PackagesSectionProps) {
  const { services } = siteContent();
  const packages = services.packages ?? [];
  const [client] = useState(createQueryClient);
  if (packages.length === 0) return null;
  return (
    <QueryClientProvider client={client}>
      <Packages packages={packages} currency={services.currency} goToCheckout={goToCheckout} />
    </QueryClientProvider>
  );
}

function Packages({
  packages,
  currency,
  goToCheckout,
}: {
  packages: SessionPackage[];
  currency: string;
  goToCheckout: ((url: string) => void) | undefined;
}) {
  const hydrated = useHydrated();
  const [params] = useSearchParams();
  const cancelled = params.get('package') === 'cancelled';
  const [open, setOpen] = useState<string | null>(null);
  // What the server says of the caller (member prices) and of payment, once the page runs.
  const server = usePackages();
  const memberPrices = server.data?.member_prices === true;
  const paymentsOff = server.data?.payments_enabled === false;
  return (
    <div className="mt-6 flex flex-col gap-5">
      {cancelled ? (
        <p
          role="status"
          className="rounded-md border border-ink-600 bg-ink-900 p-4 text-sm text-fg"
        >
          Payment for the package was cancelled and nothing was charged.
        </p>
      ) : null}
      <ul className="grid gap-5 md:grid-cols-2">
        {packages.map((p) => (
          <li key={p.id} className="min-w-0">
            <PackageCard
              pkg={p}
              currency={p.currency ?? currency}
              memberPrices={memberPrices}
              paymentsOff={paymentsOff}
              canBuy={hydrated}
              open={open === p.id}
              onOpen={() => setOpen((o) => (o === p.id ? null : p.id))}
              goToCheckout={goToCheckout}
            />
          </li>
        ))}
      </ul>
      <p className="text-sm text-muted">
        Bought a package already?{' '}
        <Link to="/bookings/credits" className="text-term-cyan underline underline-offset-4">
          See your credits and book with one
        </Link>{' '}
        (signed in, or from the link in your credits e-mail).
      </p>
    </div>
  );
}

function PackageCard({
  pkg,
  currency,
  memberPrices,
  paymentsOff,
  canBuy,
  open,
  onOpen,
  goToCheckout,
}: {
  pkg: SessionPackage;
  currency: string;
  memberPrices: boolean;
  paymentsOff: boolean;
  canBuy: boolean;
  open: boolean;
  onOpen: () => void;
  goToCheckout: ((url: string) => void) | undefined;
}) {
  const offer = findOffer(siteContent().services, pkg.type);
  const member = memberPrices && pkg.member_price ? pkg.member_price : null;
  const pays = formatPrice(member ?? pkg.price, currency);
  const formId = `buy-${pkg.id}`;
  return (
    <Card data-testid="package-card" className="flex h-full flex-col">
      <div className="flex flex-wrap items-center gap-2">
        <p className="flex items-center gap-1.5 font-mono text-sm text-term-cyan">
          <PackageIcon size={14} aria-hidden="true" />
          {pkg.count} × {offer?.name ?? pkg.type}
        </p>
        {member ? <Badge tone="green">Member price</Badge> : null}
      </div>
      <h3 className="mt-3 text-lg font-semibold text-fg">{pkg.name}</h3>
      <p className="mt-2 flex flex-wrap items-baseline gap-x-3 font-mono">
        <span className="text-3xl font-bold text-fg">{pays}</span>
        {member ? (
          <s className="text-lg text-dim">
            <span className="sr-only">instead of </span>
            {formatPrice(pkg.price, currency)}
          </s>
        ) : null}
      </p>
      {pkg.member_price && !member ? (
        <p className="mt-1 text-sm text-muted">
          Tribe members pay {formatPrice(pkg.member_price, currency)} (member price)
        </p>
      ) : null}
      <p className="mt-2 text-sm text-muted">
        {pkg.count} credits, each books one {offer?.name ?? 'call'}
        {offer ? ` (${offer.minutes} minutes)` : ''}; valid {validityText(pkg.valid_days)} after
        purchase.
      </p>
      {pkg.description ? <p className="mt-2 text-sm text-muted">{pkg.description}</p> : null}
      <div className="mt-auto pt-6">
        {paymentsOff ? (
          <p className="text-sm text-muted">
            Packages are paid online, which is not set up yet. Please write to us to buy one.
          </p>
        ) : (
          <Button
            variant="outline"
            className="w-full"
            disabled={!canBuy}
            aria-expanded={open}
            aria-controls={formId}
            onClick={onOpen}
          >
            Buy {pkg.name}
          </Button>
        )}
        <div id={formId} hidden={!open}>
          {open ? (
            <BuyForm pkg={pkg} pays={pays} member={member !== null} goToCheckout={goToCheckout} />
          ) : null}
        </div>
      </div>
    </Card>
  );
}

function BuyForm({
  pkg,
  pays,
  member,
  goToCheckout = (url) => window.location.assign(url),
}: {
  pkg: SessionPackage;
  pays: string;
  member: boolean;
  goToCheckout?: (url: string) => void;
}) {
  const session = useSession();
  const user = session.status === 'signed-in' ? session.user : null;
  const [name, setName] = useState(user?.full_name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const [problem, setProblem] = useState<string | null>(null);
  const buy = useBuyPackage();
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => form.current?.querySelector<HTMLElement>('[name="name"]')?.focus(), []);
  useEffect(() => {
    if (!user) return;
    setName((n) => n || user.full_name);
    setEmail((e) => e || user.email);
  }, [user]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (buy.isPending) return;
    const found = validateBooking({ name, email, notes: '' });
    setErrors({ name: found.name, email: found.email });
    if (found.name || found.email) return;
    setProblem(null);
    buy.mutate(
      { id: pkg.id, name: name.trim(), email: email.trim() },
      {
        onSuccess: (r) => goToCheckout(r.checkout_url),
        onError: (error) => {
          if (error instanceof RetryLaterError) {
            setProblem(`${error.message} You can try again ${retryText(error.retryAfter)}.`);
            return;
          }
          if (error instanceof ApiError && error.status === 400) {
            const field = formField(error.field);
            if (field === 'name' || field === 'email') {
              setErrors({ [field]: error.message });
              return;
            }
          }
          setProblem(errorMessage(error));
        },
      },
    );
  };

  return (
    <form ref={form} noValidate onSubmit={submit} className="mt-4 flex flex-col gap-4">
      {problem ? <FormProblem message={problem} /> : null}
      <TextField
        label="Full name"
        name="name"
        autoComplete="name"
        required
        value={name}
        onValueChange={(v) => {
          setName(v);
          setErrors((e) => ({ ...e, name: undefined }));
        }}
        error={errors.name}
      />
      <TextField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        value={email}
        onValueChange={(v) => {
          setEmail(v);
          setErrors((e) => ({ ...e, email: undefined }));
        }}
        hint="Your credits and the link to use them go here."
        error={errors.email}
      />
      <Button type="submit" disabled={buy.isPending} className="w-full">
        {buy.isPending ? 'Opening payment…' : `Pay ${pays}${member ? ' (member price)' : ''}`}
      </Button>
      <p className="text-sm text-muted">
        You pay on Stripe's secure page, where a promotion code can be entered. Your credits arrive
        by e-mail with a link to book each call.
      </p>
    </form>
  );
}
