import type { LucideIcon } from 'lucide-react';
import {
  ArrowRight,
  Bot,
  Check,
  Database,
  GitMerge,
  Network,
  Rocket,
  Users,
  Workflow,
} from 'lucide-react';
import { type ComponentType, type ReactNode, useId, useRef, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Container } from '@/components/ui/container';
import { ExternalLink } from '@/components/ui/external-link';
import { Section } from '@/components/ui/section';
import { SocialIcon } from '@/components/ui/social-icon';
import { TypedText } from '@/components/ui/typed-text';
import { formatPrice } from '@/content/format';
import { siteContent } from '@/content/site';
import { errorMessage } from '@/lib/api';
import type { PlanOffer, TribeStatus } from '@/lib/api-types/billing';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/page-title';
import { plural, pluralNoun } from '@/lib/plural';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { type SessionState, useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useTribeStatus } from './api/get-tribe-status';
import { goToCheckout, startCheckout } from './api/start-checkout';

/** Icons for the six "what you will build" items, in order; extra items reuse the last. */
const buildIcons: readonly LucideIcon[] = [Bot, Network, Database, Workflow, GitMerge, Rocket];

/**
 * What the At Capacity notice says of the places: "All 50 places are taken.", "The 1 place is
 * taken.", and how many of them checkouts in progress hold.
 */
export function allTakenText(capacity: number, held = 0): string {
  const taken = `${capacity === 1 ? 'The' : 'All'} ${plural(capacity, 'place')} ${pluralNoun(capacity, 'is', 'are')} taken`;
  const freesUp = 'up if not paid within half an hour.';
  if (held <= 0) return `${taken}.`;
  if (capacity === 1) return `${taken} by a checkout in progress that frees ${freesUp}`;
  const by = held === 1 ? 'a checkout in progress that frees' : 'checkouts in progress that free';
  return `${taken}, ${held} of them by ${by} ${freesUp}`;
}

/** The capacity line: neutral until the live count arrives (and whenever it cannot). */
export function CapacityNotice({
  capacity,
  status,
  live = true,
}: {
  capacity: number;
  status: TribeStatus | null;
  /** Announce changes to screen readers (once per page is enough). */
  live?: boolean;
}) {
  const role = live ? 'status' : undefined;
  if (status?.at_capacity) {
    return (
      <div
        role={role}
        className="inline-flex flex-col gap-1 rounded-lg border border-term-amber/60 bg-term-amber/10 px-4 py-3 text-left"
      >
        <p className="flex items-center gap-2 font-mono font-bold text-term-amber">
          <Users size={16} aria-hidden="true" />
          At Capacity
        </p>
        <p className="text-sm text-fg">
          {allTakenText(status.capacity, status.held)} Join the wait list and you will hear first
          when a spot opens.
        </p>
      </div>
    );
  }
  const text =
    status === null
      ? `Limited to ${plural(capacity, 'member')}`
      : `${plural(status.spots_left, 'spot')} left of ${status.capacity}${status.held > 0 ? `, ${status.held} being checked out` : ''}`;
  return (
    <p
      role={role}
      className="inline-flex min-w-[15rem] items-center justify-center gap-2 rounded-full border border-term-green/40 bg-term-green/10 px-4 py-1.5 font-mono text-sm text-term-green"
    >
      <Users size={14} aria-hidden="true" />
      {text}
    </p>
  );
}

/** A button that opens one of the tribe's dialogs; the page gives it its label and look. */
export interface TribeDialogButtonProps {
  children: ReactNode;
  className?: string;
  /** Why the visitor joins the wait list, for the dialog to say (never "full" when it is not). */
  reason?: WaitlistReason | undefined;
}

export type WaitlistReason = 'full' | 'payments-off';

export interface TribePageProps {
  /** Opens the Join the Wait List dialog. */
  WaitlistButton: ComponentType<TribeDialogButtonProps>;
  /** Opens the Member Login dialog. */
  LoginButton: ComponentType<TribeDialogButtonProps>;
}

/** Who is looking: the calls to action differ for each. An admin has a subscriber's access without paying. */
export type Audience = 'visitor' | 'member' | 'subscriber' | 'admin';

/** Statuses that give tribe access (the server's rule, docs/billing.md). */
const ACCESS_STATUSES = ['active', 'trialing', 'past_due'];

export function audienceOf(state: SessionState): Audience {
  if (state.status !== 'signed-in') return 'visitor';
  const sub = state.user.subscription;
  if (sub && ACCESS_STATUSES.includes(sub.status)) return 'subscriber';
  return state.user.is_admin ? 'admin' : 'member';
}

/**
 * The audience, settled once the session is known. A visitor who signs in on this page (the Login
 * dialog) is taken to the members area by a full page load, so the page keeps the visitor's calls
 * to action meanwhile: swapping them would pull the open dialog out from under the sign-in.
 * Signing out, or a subscription starting, still shows at once.
 */
function useAudience(): Audience {
  const state = useSession();
  const settled = useRef<Audience | null>(null);
  if (state.status === 'unknown') return 'visitor';
  const now = audienceOf(state);
  if (settled.current === 'visitor' && now !== 'visitor') return 'visitor';
  settled.current = now;
  return now;
}

/** Why a new member cannot subscribe now, or null when a seat can be bought (or it is unknown). */
export function waitlistReason(status: TribeStatus | null): WaitlistReason | null {
  if (status?.at_capacity) return 'full';
  if (status && !status.payments_enabled) return 'payments-off';
  return null;
}

type Plan = 'monthly' | 'annual';

/** A plan's price as the page shows it ("$250/month"); null when Stripe's price is unknown. */
export function planPrice(offer: PlanOffer | undefined): string | null {
  if (!offer || offer.amount <= 0) return null;
  const per = offer.interval === 'year' ? 'year' : 'month';
  return `${formatPrice(offer.amount / 100, offer.currency.toUpperCase())}/${per}`;
}

/**
 * The monthly and annual choices, when the tribe offers both (STRIPE_PRICE_ID_ANNUAL): a radio
 * group the keyboard and screen readers know, each with Stripe's price.
 */
export function PlanChoice({
  plans,
  value,
  onChange,
}: {
  plans: PlanOffer[];
  value: Plan;
  onChange: (plan: Plan) => void;
}) {
  const name = useId();
  if (!plans.some((p) => p.plan === 'annual')) return null;
  const label = (plan: Plan) => {
    const price = planPrice(plans.find((p) => p.plan === plan));
    const title = plan === 'annual' ? 'Yearly' : 'Monthly';
    return price ? `${title}: ${price}` : title;
  };
  return (
    <fieldset className="flex flex-col gap-2 sm:flex-row sm:gap-4">
      <legend className="mb-2 text-sm font-medium">Choose your plan</legend>
      {(['monthly', 'annual'] as const).map((plan) => (
        <label
          key={plan}
          className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm"
        >
          <input
            type="radio"
            name={name}
            value={plan}
            checked={value === plan}
            onChange={() => onChange(plan)}
          />
          {label(plan)}
        </label>
      ))}
    </fieldset>
  );
}

/** Starts a Stripe Checkout for a signed-in member and sends the browser there. */
function SubscribeButton({ className, plan = 'monthly' }: { className: string; plan?: Plan }) {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      goToCheckout(await startCheckout(plan));
    } catch (error) {
      setBusy(false);
      toast.error('Could not start checkout', errorMessage(error));
    }
  };
  return (
    <button type="button" className={className} disabled={busy} onClick={() => void start()}>
      {busy ? 'Opening checkout…' : 'Subscribe'}
    </button>
  );
}

/**
 * The calls to action, following the real state: a subscriber goes to the members area; a member
 * subscribes while seats are free and payment is on; a visitor signs up first; the wait list only
 * when the tribe is full or payment is off. Until the status arrives a visitor sees the wait list
 * and Login (what the prerendered page shows).
 */
function TribeActions({
  status,
  audience,
  className,
  WaitlistButton,
  LoginButton,
}: TribePageProps & { status: TribeStatus | null; audience: Audience; className?: string }) {
  const reason = waitlistReason(status);
  const open = status !== null && reason === null;
  const [plan, setPlan] = useState<Plan>('monthly');
  const wrap = cn('flex flex-col gap-3 sm:flex-row', className);
  const primary = buttonClasses('primary', 'lg');
  const outline = buttonClasses('outline', 'lg');
  if (audience === 'subscriber' || audience === 'admin') {
    return (
      <div className={wrap}>
        <Link to="/members" className={primary}>
          Go to the Members Area
        </Link>
      </div>
    );
  }
  if (audience === 'member') {
    return (
      <div className={wrap}>
        {open ? (
          <div className="flex flex-col gap-3">
            <PlanChoice plans={status?.plans ?? []} value={plan} onChange={setPlan} />
            <SubscribeButton className={primary} plan={plan} />
          </div>
        ) : (
          <WaitlistButton className={primary} reason={reason ?? undefined}>
            Join Wait List
          </WaitlistButton>
        )}
        <Link to="/members" className={outline}>
          Members Area
        </Link>
      </div>
    );
  }
  if (open) {
    return (
      <div className={wrap}>
        <Link to="/auth" className={primary}>
          Sign Up to Join
        </Link>
        <LoginButton className={outline}>Login</LoginButton>
      </div>
    );
  }
  return (
    <div className={wrap}>
      <WaitlistButton className={reason ? primary : outline} reason={reason ?? undefined}>
        Join Wait List
      </WaitlistButton>
      <LoginButton className={reason ? outline : primary}>Login</LoginButton>
    </div>
  );
}

/** The closing section's line, for who is looking and what they can do. */
function closingText(audience: Audience, reason: WaitlistReason | null): string {
  if (audience === 'subscriber')
    return 'You are in. Your sessions and cohort are in the members area.';
  if (audience === 'admin') {
    return 'You are an admin: the sessions, the meeting details and the Admin tab are in the members area, no subscription needed.';
  }
  if (reason === 'full')
    return 'The tribe is full: join the wait list to hear first when a spot opens.';
  if (reason === 'payments-off') {
    return 'Online payment is not set up yet: join the wait list and we will tell you when you can join.';
  }
  if (audience === 'member') return 'Subscribe to take your seat, or head to the members area.';
  return 'Create an account and subscribe to take your seat, or log in if you are already a member.';
}

/**
 * /tribe. The dialogs behind its buttons belong to the account feature, so the page takes the
 * buttons as props and the app's route (app/pages/tribe.tsx) passes them in.
 */
export function TribePage(buttons: TribePageProps) {
  usePageTitle('The Tribe');
  const { services, about, contact } = siteContent();
  const { tribe } = services;
  const status = useTribeStatus();
  const audience = useAudience();
  const reason = waitlistReason(status);
  const price = formatPrice(tribe.price_monthly, tribe.currency);
  const links = contact.online_presence.links;

  const steps = [
    {
      title: 'Find your tribe',
      text: `Join a cohort of about ${tribe.cohort_size} builders at a similar stage, so every session is about work like yours.`,
    },
    {
      title: 'Meet and build together',
      text: `Live sessions of ${tribe.session_length}, ${tribe.session_cadence}, led by ${about.handle}: design reviews, pairing and answers to the questions you bring.`,
    },
    {
      title: 'Ship and iterate',
      text: 'Take what you built to production between sessions, then bring back the results and improve it with the group.',
    },
  ];

  return (
    <>
      <section className="relative isolate overflow-hidden border-b border-ink-800">
        <div aria-hidden="true" className="absolute inset-0 -z-10 bg-grid" />
        <div
          aria-hidden="true"
          className="absolute -top-40 left-1/2 -z-10 h-96 w-[48rem] max-w-[200vw] -translate-x-1/2 bg-[radial-gradient(closest-side,rgb(34_211_238/0.12),transparent)]"
        />
        <Container className="py-14 text-center sm:py-20 lg:py-24">
          <p className="font-mono text-sm text-dim">
            <span className="text-term-green">$</span> join --tribe
          </p>
          <h1 className="mt-4 text-4xl font-bold text-fg sm:text-5xl lg:text-6xl">
            The <span className="text-term-green">Tribe</span>
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-term-cyan sm:text-xl">
            <TypedText
              text="Build agentic AI with a small cohort of builders."
              delay={1000}
              layout="inline"
            />
          </p>
          <p className="mx-auto mt-4 max-w-2xl text-base text-muted sm:text-lg">
            {tribe.summary} {price} per month, {tribe.billing.toLowerCase()}.
          </p>
          <div className="mt-6 flex flex-col items-center gap-2">
            <CapacityNotice capacity={tribe.capacity} status={status} />
            {reason === 'payments-off' && (audience === 'visitor' || audience === 'member') ? (
              <p className="text-sm text-muted">
                Online payment is not set up yet: join the wait list to hear when you can join.
              </p>
            ) : null}
          </div>
          <TribeActions
            {...buttons}
            status={status}
            audience={audience}
            className="mt-8 justify-center"
          />
        </Container>
      </section>

      <Container className="pb-16 sm:pb-24">
        <Section id="what" eyebrow="what it is" title="What the tribe is">
          <div className="mt-6 grid gap-6 md:grid-cols-2">
            <p className="text-base leading-relaxed text-muted">
              The tribe is a paid, small-group community for developers and teams who want to build
              agentic AI, not just read about it. You join a cohort, meet in live sessions of{' '}
              {tribe.session_length}, {tribe.session_cadence}, and work on real projects with people
              who are solving the same problems. Membership is capped at {tribe.capacity} so every
              member is known by name.
            </p>
            <ul className="space-y-3">
              {tribe.features.map((f) => (
                <li key={f} className="flex gap-3 text-fg">
                  <Check size={18} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
                  {f}
                </li>
              ))}
            </ul>
          </div>
        </Section>

        <Section id="led-by" eyebrow="led by" title={`Led by ${about.handle}`}>
          <Card className="mt-6 p-6 sm:p-8">
            <p className="font-mono text-lg text-fg">{about.name}</p>
            <p className="font-mono text-sm text-term-cyan">{about.title}</p>
            <p className="mt-4 max-w-3xl text-muted">{about.summary}</p>
            <Link
              to="/about"
              onClick={scrollToTopSmooth}
              className="mt-4 inline-flex items-center gap-1.5 font-mono text-sm text-term-cyan hover:underline"
            >
              More about {about.handle}
              <ArrowRight size={14} aria-hidden="true" />
            </Link>
          </Card>
        </Section>

        <Section id="how" eyebrow="how it works" title="How it works">
          <ol className="mt-6 grid gap-4 md:grid-cols-3">
            {steps.map((step, i) => (
              <li key={step.title}>
                <Card className="flex h-full flex-col">
                  <p aria-hidden="true" className="font-mono text-sm text-term-green">
                    {String(i + 1).padStart(2, '0')}
                  </p>
                  <h3 className="mt-2 text-lg font-semibold text-fg">{step.title}</h3>
                  <p className="mt-1 text-sm text-muted">{step.text}</p>
                  {i === 1 ? (
                    <TribeActions
                      {...buttons}
                      status={status}
                      audience={audience}
                      className="mt-auto pt-5"
                    />
                  ) : null}
                </Card>
              </li>
            ))}
          </ol>
        </Section>

        <Section id="build" eyebrow="projects" title="What you will build">
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {tribe.what_you_will_build.map((item, i) => {
              const Icon = buildIcons[Math.min(i, buildIcons.length - 1)] ?? Bot;
              return (
                <li
                  key={item}
                  className="flex items-center gap-3 rounded-lg border border-ink-700 bg-ink-850/60 p-4"
                >
                  <Icon size={20} aria-hidden="true" className="shrink-0 text-term-cyan" />
                  <span className="text-fg">{item}</span>
                </li>
              );
            })}
          </ul>
        </Section>

        <Section id="pricing" eyebrow="pricing" title="Membership">
          <Card className="mx-auto mt-6 max-w-md border-term-green/60 p-6 text-center sm:p-8">
            <p className="font-mono text-sm text-term-green">{tribe.name}</p>
            <p className="mt-2 font-mono text-5xl font-bold text-fg">
              {price}
              <span className="text-lg font-normal text-muted">/month</span>
            </p>
            <p className="mt-1 text-sm text-muted">{tribe.billing}</p>
            <ul className="mt-6 space-y-2 text-left">
              {[
                `Live sessions of ${tribe.session_length}, ${tribe.session_cadence}`,
                `Cohorts of about ${tribe.cohort_size}`,
                `Limited to ${plural(tribe.capacity, 'member')}`,
                ...tribe.features.slice(2),
              ].map((f) => (
                <li key={f} className="flex gap-2 text-sm text-fg">
                  <Check size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
                  {f}
                </li>
              ))}
            </ul>
          </Card>
        </Section>

        <section
          aria-labelledby="join"
          className="mt-16 rounded-xl border border-ink-700 bg-ink-850/80 p-6 text-center sm:mt-20 sm:p-10"
        >
          <h2 id="join" className="text-2xl font-bold text-fg sm:text-3xl">
            Ready to build with the tribe?
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-muted">{closingText(audience, reason)}</p>
          <div className="mt-5 flex justify-center">
            <CapacityNotice capacity={tribe.capacity} status={status} live={false} />
          </div>
          <TribeActions
            {...buttons}
            status={status}
            audience={audience}
            className="mt-6 justify-center"
          />
          <ul className="mt-8 flex justify-center gap-3" aria-label={`Follow ${about.handle}`}>
            <li>
              <ExternalLink href={links.linkedin} className={buttonClasses('ghost', 'sm')}>
                <SocialIcon kind="linkedin" />
                LinkedIn
              </ExternalLink>
            </li>
            <li>
              <ExternalLink href={links.github} className={buttonClasses('ghost', 'sm')}>
                <SocialIcon kind="github" />
                GitHub
              </ExternalLink>
            </li>
          </ul>
        </section>
      </Container>
    </>
  );
}
