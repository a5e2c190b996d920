import { QueryClientProvider } from '@tanstack/react-query';
import { Check, Clock } from 'lucide-react';
import { startTransition, useEffect, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { Section } from '@/components/ui/section';
import { formatPrice } from '@/content/format';
import { siteContent } from '@/content/site';
import { createQueryClient } from '@/lib/query';
import { Link } from '@/lib/router';
import { useHydrated } from '@/lib/use-hydrated';
import { BookingFlow } from './BookingFlow';
import { durationText, findOffer, type Offer } from './offers';

export interface BookPageProps {
  /** The type's id, the last part of /book/{type}. */
  type: string;
  /** The document title (app/seo.ts), as the prerendered page has it. */
  title: string;
}

/**
 * /book/{type}: the offer from the content file (prerendered, so crawlers and the first paint
 * see its name, length and price), then the calendar and form once the page runs. The page
 * brings its own query client, so the booking flow's code loads with this chunk only.
 */
export function BookPage({ type, title }: BookPageProps) {
  const content = siteContent();
  const offer = findOffer(content.services, type);
  const [client] = useState(createQueryClient);
  if (!offer) {
    return (
      <Page title={title}>
        <PageHeader command={`book ${type}`} title="This session cannot be booked here" />
        <p className="mt-6 text-muted">
          There is no such session or training option. See what can be booked on the booking page.
        </p>
        <Link to="/booking" className={buttonClasses('outline', 'md', 'mt-6')}>
          All sessions and prices
        </Link>
      </Page>
    );
  }
  return (
    <Page title={title}>
      <PageHeader
        command={`book ${offer.id}`}
        title={`Book: ${offer.name}`}
        lead={offer.description}
      >
        <p className="mt-4 flex flex-wrap items-center gap-x-5 gap-y-1 font-mono text-fg">
          <span className="flex items-center gap-1.5 text-term-cyan">
            <Clock size={16} aria-hidden="true" />
            {durationText(offer.minutes)}
          </span>
          <span className="text-2xl font-bold">
            {offer.price === 0 ? 'Free' : formatPrice(offer.price, offer.currency)}
          </span>
          {offer.memberPrice ? (
            <span className="text-sm text-term-green">
              Tribe members pay {formatPrice(offer.memberPrice, offer.currency)} (member price)
            </span>
          ) : null}
          <span className="text-sm text-muted">
            {offer.seats > 0
              ? `per seat · live group session with ${content.about.handle}, up to ${offer.seats} people`
              : `one-on-one video call with ${content.about.handle}`}
          </span>
        </p>
      </PageHeader>
      <Section
        id="choose-time"
        eyebrow="schedule"
        title={offer.seats > 0 ? 'Choose a date' : 'Choose a time'}
        className="mt-10 sm:mt-12"
      >
        <Card className="mt-6 p-4 sm:p-6">
          <ChooseTime offer={offer} client={client} />
        </Card>
      </Section>
      <Section
        id="included"
        eyebrow="included"
        title="What the session covers"
        className="mt-12 sm:mt-14"
      >
        <ul className="mt-4 grid gap-2 sm:grid-cols-2">
          {offer.features.map((f) => (
            <li key={f} className="flex gap-2 text-sm text-fg">
              <Check size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
              {f}
            </li>
          ))}
        </ul>
        <p className="mt-6 text-sm text-muted">
          {offer.seats > 0
            ? 'After booking you get an invitation for your calendar, reminders before the session and a link to cancel your seat.'
            : 'After booking you get an invitation for your calendar and links to move or cancel the session.'}{' '}
          <Link to="/booking" className="text-term-cyan underline underline-offset-4">
            Other sessions and prices
          </Link>
        </p>
      </Section>
    </Page>
  );
}

function ChooseTime({
  offer,
  client,
}: {
  offer: Offer;
  client: ReturnType<typeof createQueryClient>;
}) {
  // The calendar depends on the visitor's zone and today's date: the prerendered page and the
  // first render in the browser show the same placeholder, then the calendar. It comes in a
  // transition, which React renders in slices between the browser's own work: mounted at once on
  // hydration, the flow (the zone, the month, the first free times) was one long task that kept
  // the page from answering (Lighthouse: 1.4 s of blocking time on a phone).
  const hydrated = useHydrated();
  const [ready, setReady] = useState(hydrated);
  useEffect(() => {
    if (!ready) startTransition(() => setReady(true));
  }, [ready]);
  if (!offer.native) {
    return (
      <p className="text-sm text-muted">
        This session is booked on an external scheduling page.{' '}
        {offer.link ? (
          <a href={offer.link} className="text-term-cyan underline underline-offset-4">
            Open the scheduling page
          </a>
        ) : (
          'Booking is paused for now.'
        )}
      </p>
    );
  }
  if (!ready) {
    // As tall as the calendar that replaces it (measured at 360, 412, 768 and 1440 px), so the
    // sections below do not jump when it arrives (Lighthouse counted a layout shift of 0.14).
    return (
      <p aria-busy="true" className="min-h-[29.5rem] text-sm text-muted md:min-h-[25.75rem]">
        Loading the free times…
      </p>
    );
  }
  return (
    <QueryClientProvider client={client}>
      <BookingFlow offer={offer} />
    </QueryClientProvider>
  );
}
