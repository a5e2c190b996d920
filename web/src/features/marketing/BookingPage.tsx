import { ArrowRight, Check, Clock, MessageSquare, Users } from 'lucide-react';
import { type ComponentType, useEffect, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card, coverLinkClass } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { Section } from '@/components/ui/section';
import { formatPrice } from '@/content/format';
import { siteContent } from '@/content/site';
import type { Session, TrainingOption } from '@/content/types';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { useHydrated } from '@/lib/use-hydrated';
import { BookButton } from './BookButton';
import { InquiryForm } from './InquiryForm';

/** The id of the inquiry form's section, which an inquiry card's button controls. */
const INQUIRY_ID = 'enterprise-inquiry';

function FeatureList({ features }: { features: string[] }) {
  return (
    <ul className="mt-4 space-y-2">
      {features.map((f) => (
        <li key={f} className="flex gap-2 text-sm text-fg">
          <Check size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
          {f}
        </li>
      ))}
    </ul>
  );
}

function SessionCard({ session, currency }: { session: Session; currency: string }) {
  return (
    <Card
      data-testid="session-card"
      className={cn(
        'relative flex min-h-[450px] flex-col',
        session.popular && 'border-term-green/70 shadow-[0_0_0_1px_rgb(74_222_128/0.35)]',
      )}
    >
      <div className="flex items-center justify-between gap-2">
        <p className="flex items-center gap-1.5 font-mono text-sm text-term-cyan">
          <Clock size={14} aria-hidden="true" />
          {session.duration} minutes
        </p>
        {session.popular ? <Badge tone="amber">★ Most popular</Badge> : null}
      </div>
      <h3 className="mt-3 text-lg font-semibold text-fg">{session.name}</h3>
      <p className="mt-2 font-mono text-4xl font-bold text-fg">
        {formatPrice(session.price, currency)}
      </p>
      {session.member_price ? (
        <p className="mt-1 text-sm text-term-green">
          Tribe members pay {formatPrice(session.member_price, currency)} (member price)
        </p>
      ) : null}
      <p className="mt-3 text-sm text-muted">{session.description}</p>
      <FeatureList features={session.features} />
      <div className="mt-auto pt-6">
        <BookButton
          href={session.booking_link ?? ''}
          to={session.booking === 'native' ? `/book/${session.id}` : undefined}
          variant={session.popular ? 'primary' : 'outline'}
          label={`Book Now: ${session.duration}-minute ${session.name}`}
        >
          Book Now
        </BookButton>
      </div>
    </Card>
  );
}

function TrainingCard({
  option,
  currency,
  inquiryOpen,
  onInquiry,
}: {
  option: TrainingOption;
  currency: string;
  inquiryOpen: boolean;
  onInquiry: () => void;
}) {
  // An inquiry card opens the form on this page once the page runs; before that (and without
  // scripts) its button stays the mail link of the content.
  const hydrated = useHydrated();
  const inquiry = option.booking === 'inquiry' && hydrated;
  const badged = option.isPopular || option.isLimitedTime;
  return (
    <Card
      data-testid="training-card"
      className={cn('flex h-full flex-col', option.isPopular && 'border-term-green/70')}
    >
      {/* The badge row keeps its height on a card without badges, so the titles line up side by
          side; stacked on a phone there is nothing to line up with. */}
      <div className={cn('flex min-h-[1.375rem] flex-wrap gap-2', !badged && 'max-md:hidden')}>
        {option.isPopular ? <Badge tone="amber">★ Popular</Badge> : null}
        {option.isLimitedTime ? <Badge tone="cyan">Limited time</Badge> : null}
      </div>
      <h3 className={cn('mt-3 text-lg font-semibold text-fg', !badged && 'max-md:mt-0')}>
        {option.title}
      </h3>
      {option.subtitle ? <p className="text-sm text-muted">{option.subtitle}</p> : null}
      <p className="mt-3 flex flex-wrap items-baseline gap-x-3 font-mono">
        <span className="text-3xl font-bold text-fg">{formatPrice(option.price, currency)}</span>
        {option.originalPrice ? (
          <s className="text-lg text-dim">
            <span className="sr-only">was </span>
            {formatPrice(option.originalPrice, currency)}
          </s>
        ) : null}
      </p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 font-mono text-sm">
        <dt className="text-dim">duration</dt>
        <dd className="text-fg">{option.duration}</dd>
        <dt className="text-dim">capacity</dt>
        <dd className="text-fg">{option.capacity}</dd>
      </dl>
      <FeatureList features={option.features} />
      <div className="mt-auto pt-6">
        {inquiry ? (
          <button
            type="button"
            aria-expanded={inquiryOpen}
            aria-controls={INQUIRY_ID}
            onClick={onInquiry}
            className={buttonClasses(option.isPopular ? 'primary' : 'outline', 'md', 'w-full')}
          >
            <MessageSquare size={16} aria-hidden="true" />
            {option.button_text}
          </button>
        ) : (
          <BookButton
            href={option.booking_link ?? ''}
            to={option.booking === 'native' ? `/book/${option.id}` : undefined}
            variant={option.isPopular ? 'primary' : 'outline'}
          >
            {option.button_text}
          </BookButton>
        )}
      </div>
    </Card>
  );
}

export interface BookingPageProps {
  /** The session packages' section (the booking feature's, given by app/pages/booking.tsx). */
  Packages?: ComponentType;
}

export function BookingPage({ Packages }: BookingPageProps = {}) {
  const { services } = siteContent();
  const { currency, tribe, neural_trader: trader } = services;
  const [inquiryOpen, setInquiryOpen] = useState(false);
  const inquiryHeading = useRef<HTMLHeadingElement>(null);
  const inquiryOffer = services.training.find((t) => t.booking === 'inquiry');
  useEffect(() => {
    if (inquiryOpen) inquiryHeading.current?.focus();
  }, [inquiryOpen]);

  return (
    <Page title="Booking">
      <PageHeader
        command="book --session"
        title="Book a Session"
        lead="One-on-one video sessions on agentic AI, Neural Trader training and the tribe. Pick a session, choose a free time in your own time zone and book it right here: you get a calendar invitation and links to move or cancel."
      />

      <Section id="sessions" eyebrow="one-on-one" title="Coaching sessions">
        <ul className="mt-6 grid gap-5 md:grid-cols-3">
          {services.sessions.map((s) => (
            <li key={s.id}>
              <SessionCard session={s} currency={currency} />
            </li>
          ))}
        </ul>
      </Section>

      {Packages && (services.packages ?? []).length > 0 ? (
        <Section
          id="packages"
          eyebrow="packages"
          title="Session packages"
          lead="Pay once for several calls and book each one when you need it, with nothing to pay at booking."
        >
          <Packages />
        </Section>
      ) : null}

      <Section id="tribe-membership" eyebrow="community" title="Tribe membership">
        <Card className="group relative mt-6 grid gap-4 border-term-green/40 p-6 transition-colors hover:border-term-green/70 has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-term-cyan sm:p-8 md:grid-cols-[1fr_auto] md:items-center">
          <div>
            <h3 className="text-lg font-semibold text-fg">
              <Link to="/tribe" onClick={scrollToTopSmooth} className={coverLinkClass}>
                {tribe.name}
              </Link>
            </h3>
            <p className="mt-2 max-w-2xl text-sm text-muted">{tribe.summary}</p>
            <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1 font-mono text-sm text-fg">
              <span>
                sessions of {tribe.session_length}, {tribe.session_cadence}
              </span>
              <span>cohorts of about {tribe.cohort_size}</span>
              <span className="flex items-center gap-1.5 text-term-amber">
                <Users size={14} aria-hidden="true" />
                limited to {plural(tribe.capacity, 'member')}
              </span>
            </p>
          </div>
          <div className="font-mono md:text-right">
            <p className="text-3xl font-bold text-fg">
              {formatPrice(tribe.price_monthly, tribe.currency)}
              <span className="text-base font-normal text-muted">/month</span>
            </p>
            <p className="text-sm text-muted">{tribe.billing}</p>
            <span className="mt-3 inline-flex items-center gap-1.5 text-sm text-term-cyan">
              Learn about the tribe
              <ArrowRight
                size={14}
                aria-hidden="true"
                className="transition-transform group-hover:translate-x-0.5"
              />
            </span>
          </div>
        </Card>
      </Section>

      <Section
        id="neural-trader"
        eyebrow="training"
        title={`${trader.name} training`}
        lead={trader.description}
      >
        <ul className="mt-6 grid gap-5 md:grid-cols-3">
          {services.training.map((t) => (
            <li key={t.id}>
              <TrainingCard
                option={t}
                currency={currency}
                inquiryOpen={inquiryOpen}
                onInquiry={() => setInquiryOpen((open) => !open)}
              />
            </li>
          ))}
        </ul>
        {inquiryOffer ? (
          <section
            id={INQUIRY_ID}
            hidden={!inquiryOpen}
            aria-labelledby={`${INQUIRY_ID}-heading`}
            className="mt-6 scroll-mt-24"
          >
            <Card className="p-5 sm:p-8">
              <h3
                id={`${INQUIRY_ID}-heading`}
                ref={inquiryHeading}
                tabIndex={-1}
                className="text-lg font-semibold text-fg focus:outline-none"
              >
                {inquiryOffer.title}: tell us about your team
              </h3>
              <p className="mt-1 text-sm text-muted">
                {formatPrice(inquiryOffer.price, currency)} for {inquiryOffer.duration}. Every
                package is shaped with your team first: send a few details and rUv replies
                personally.
              </p>
              <div className="mt-5">
                {inquiryOpen ? <InquiryForm title={inquiryOffer.title} /> : null}
              </div>
            </Card>
          </section>
        ) : null}
        <div className="mt-6 grid gap-4 md:grid-cols-2">
          <Card>
            <h3 className="font-semibold text-fg">Included with every training</h3>
            <FeatureList features={trader.included_benefits} />
          </Card>
          <Card>
            <h3 className="font-semibold text-fg">How training is booked</h3>
            <p className="mt-4 text-sm text-muted">{trader.booking_info}</p>
          </Card>
        </div>
      </Section>

      <Section id="how-it-works" eyebrow="process" title="How it works">
        <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {services.how_it_works.map((step, i) => (
            <li key={step.title}>
              <Card className="h-full">
                <p className="font-mono text-sm text-term-green" aria-hidden="true">
                  {String(i + 1).padStart(2, '0')}
                </p>
                <h3 className="mt-2 font-semibold text-fg">{step.title}</h3>
                <p className="mt-1 text-sm text-muted">{step.description}</p>
              </Card>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="faq" eyebrow="faq" title="Frequently asked questions">
        <div className="mt-6 divide-y divide-ink-700 rounded-lg border border-ink-700 bg-ink-850/60">
          {services.faq.map((item) => (
            <details key={item.question} className="group px-5 py-4">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 font-medium text-fg marker:hidden [&::-webkit-details-marker]:hidden">
                {item.question}
                <span
                  aria-hidden="true"
                  className="font-mono text-term-green transition-transform group-open:rotate-45"
                >
                  +
                </span>
              </summary>
              <p className="mt-3 text-sm text-muted">{item.answer}</p>
            </details>
          ))}
        </div>
      </Section>

      <div className="mt-16 flex flex-col items-start gap-3 sm:flex-row sm:items-center">
        <p className="text-muted">Not sure which option fits?</p>
        <Link to="/about" onClick={scrollToTopSmooth} className={buttonClasses('outline', 'md')}>
          Read about rUv first
        </Link>
      </div>
    </Page>
  );
}
