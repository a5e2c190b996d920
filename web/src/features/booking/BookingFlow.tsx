import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { FormProblem } from '@/components/ui/form-problem';
import { formatPrice } from '@/content/format';
import { siteContent } from '@/content/site';
import { ApiError, errorMessage } from '@/lib/api';
import { useNavigate, useSearchParams } from '@/lib/router';
import { useSession } from '@/lib/session';
import { useCreateBooking } from './api/create-booking';
import { type CreditsOwner, creditsLink, useCredits } from './api/credits';
import { useBookingTypes } from './api/get-types';
import { RetryLaterError, retryText } from './api/request';
import type { BookingCreated } from './api/types';
import { BookingForm } from './BookingForm';
import { longDate } from './calendar';
import { EventPicker } from './EventPicker';
import { durationText, type Offer } from './offers';
import { SeatOffer } from './SeatOffer';
import { SlotPicker } from './SlotPicker';
import { detectTimeZone, formatInZone, formatMinor, slotLabel, wallClock } from './time';
import { type BookingField, type BookingFormValues, formField } from './validate';

export interface BookingFlowProps {
  offer: Offer;
  /** Leaves the site for Stripe Checkout (tests replace it). */
  goToCheckout?: (url: string) => void;
}

/** Where the booker's own page is: the server's link, or the booking with its token. */
export function manageHref(created: BookingCreated): string | null {
  if (created.manage_url) {
    try {
      const u = new URL(created.manage_url, window.location.origin);
      if (u.origin === window.location.origin) return `${u.pathname}${u.search}`;
    } catch {
      // Not a URL: fall back to the id and token.
    }
  }
  if (!created.token) return null;
  return `/bookings/${encodeURIComponent(created.booking.id)}?token=${encodeURIComponent(created.token)}`;
}

/**
 * The client part of /book/{type}: the calendar, the form, and what the server answers. A time
 * taken meanwhile (409 slot_taken) says so and shows the free times again; a refused field is
 * marked on the field; too many open bookings (429) says when to try again.
 */
export function BookingFlow({
  offer,
  goToCheckout = (url) => window.location.assign(url),
}: BookingFlowProps) {
  const [params] = useSearchParams();
  const [zone, setZone] = useState(detectTimeZone);
  const [slot, setSlot] = useState<string | null>(null);
  // A group training is booked by the seat of a date: the date's id, its start in `slot`.
  const [eventId, setEventId] = useState<string | null>(null);
  const seated = offer.seats > 0;
  const [values, setValues] = useState<BookingFormValues>({ name: '', email: '', notes: '' });
  const [errors, setErrors] = useState<Partial<Record<BookingField, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const formHeading = useRef<HTMLHeadingElement>(null);
  const navigate = useNavigate();
  // Back from Stripe's page without paying: the hold was released (docs/api.md, "Returning from Stripe").
  const checkoutCancelled = params.get('cancelled') === '1';
  const session = useSession();
  const types = useBookingTypes();
  // Credits of a session package: the credits mail's link (its address and token, passed on by
  // the credits page) or the signed-in member's.
  const link = creditsLink(params);
  const owner: CreditsOwner | null =
    link ?? (session.status === 'signed-in' ? { signedIn: true } : null);
  const credits = useCredits(seated ? null : owner);
  const creditsLeft = (credits.data?.credits ?? [])
    .filter((c) => c.type === offer.id)
    .reduce((n, c) => n + c.remaining, 0);
  const [payInstead, setPayInstead] = useState(false);
  const useCredit = creditsLeft > 0 && !payInstead;

  // A signed-in member's name and address, unless the visitor typed their own.
  const user = session.status === 'signed-in' ? session.user : null;
  const linkEmail = link?.email ?? '';
  useEffect(() => {
    if (!linkEmail) return;
    setValues((v) => ({ ...v, email: v.email === '' ? linkEmail : v.email }));
  }, [linkEmail]);
  useEffect(() => {
    if (!user) return;
    setValues((v) => ({
      ...v,
      name: v.name === '' ? user.full_name : v.name,
      email: v.email === '' ? user.email : v.email,
    }));
  }, [user]);

  const create = useCreateBooking();

  const type = types.data?.types.find((t) => t.id === offer.id);
  const paymentsOn = types.data?.payments_enabled !== false;
  const free = type ? type.price === 0 : offer.price === 0;
  // The server decides who pays the member price; the page only says what it will charge.
  const member =
    types.data?.member_prices === true && type?.member_price ? type.member_price : null;
  const price =
    member !== null && type
      ? formatMinor(member, type.currency)
      : formatPrice(offer.price, offer.currency);
  const memberNote = member !== null ? ' (member price)' : '';
  const pay = !free && paymentsOn && !useCredit;

  if (types.isError) {
    return (
      <div role="alert" className="rounded-md border border-term-red/50 p-4 text-sm text-fg">
        <p>Booking could not be loaded: {errorMessage(types.error)}</p>
        <Button variant="outline" size="sm" className="mt-3" onClick={() => void types.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (types.data && type?.mode !== 'native') {
    const link = type?.booking_link ?? (offer.native ? '' : offer.link);
    return (
      <p className="text-sm text-muted">
        This session is not booked on this site right now.{' '}
        {link ? <ExternalLink href={link}>Book it on the scheduling page</ExternalLink> : null}
      </p>
    );
  }

  const submit = () => {
    if (!slot) return;
    setProblem(null);
    return create.mutateAsync(
      {
        type: offer.id,
        ...(seated && eventId ? { event_id: eventId } : {}),
        start: slot,
        name: values.name.trim(),
        email: values.email.trim(),
        notes: values.notes,
        time_zone: zone,
        ...(useCredit ? { use_credit: true, ...(link ? { credit_token: link.token } : {}) } : {}),
      },
      {
        onSuccess: (created) => {
          if (created.checkout_url) {
            goToCheckout(created.checkout_url);
            return;
          }
          const href = manageHref(created);
          if (href) navigate(href);
          else
            setProblem('Your booking was made. Check your e-mail for its confirmation and links.');
        },
        onError: (error) => {
          if (error instanceof RetryLaterError) {
            setProblem(`${error.message} You can try again ${retryText(error.retryAfter)}.`);
            return;
          }
          if (error instanceof ApiError && error.code === 'no_credit') {
            setPayInstead(true);
            void credits.refetch();
            setProblem(
              `${error.message} The form now books and pays as usual${free ? '' : ` (${price})`}.`,
            );
            return;
          }
          if (error instanceof ApiError && error.code === 'sold_out') {
            setSlot(null);
            setEventId(null);
            setProblem(
              'Someone took the last seat of that date a moment ago. The list now shows the seats that are left: please choose another date.',
            );
            return;
          }
          if (error instanceof ApiError && error.code === 'slot_taken') {
            setSlot(null);
            setProblem(
              'Someone booked that time a moment ago. The calendar now shows the times that are still free: please choose another.',
            );
            return;
          }
          if (error instanceof ApiError && error.status === 400) {
            const field = formField(error.field);
            if (field) {
              setErrors({ [field]: error.message });
              document.querySelector<HTMLElement>(`form [name="${field}"]`)?.focus();
              return;
            }
            if (error.field === 'start' || error.field === 'event_id') {
              setSlot(null);
              setEventId(null);
            }
          }
          setProblem(errorMessage(error));
        },
      },
    );
  };

  const chosen = slot ? wallClock(slot) : null;
  return (
    <div className="flex flex-col gap-8">
      {checkoutCancelled && !problem ? (
        <p className="rounded-md border border-ink-600 bg-ink-900 p-4 text-sm text-fg">
          Payment was cancelled and nothing was charged. The time you chose is free again: choose it
          or another one to book.
        </p>
      ) : null}
      {problem ? <FormProblem message={problem} /> : null}
      {seated && params.get('offer') ? (
        <SeatOffer token={params.get('offer') ?? ''} zone={zone} goToCheckout={goToCheckout} />
      ) : null}
      {types.data?.no_show_policy ? (
        <section
          aria-label="No-show policy"
          className="rounded-md border border-ink-700 bg-ink-900 p-4 text-sm text-muted"
        >
          <h2 className="mb-1 font-semibold text-fg">No-show policy</h2>
          <p className="whitespace-pre-line">{types.data.no_show_policy}</p>
        </section>
      ) : null}
      {seated ? (
        <EventPicker
          type={offer.id}
          zone={zone}
          onZoneChange={setZone}
          eventId={eventId}
          onChange={(e) => {
            setEventId(e?.id ?? null);
            setSlot(e?.start ?? null);
          }}
        />
      ) : (
        <SlotPicker
          type={offer.id}
          zone={zone}
          onZoneChange={setZone}
          slot={slot}
          onSlotChange={(s) => {
            setSlot(s);
            if (s) requestAnimationFrame(() => formHeading.current?.focus());
          }}
          // A link to a free time (the AI's, the console's, an apology mail's) has ?start=.
          proposed={params.get('start')}
          onSlotGone={() =>
            setProblem('The time you chose is no longer free. Please choose another one below.')
          }
        />
      )}
      {slot && chosen ? (
        <section
          aria-labelledby="booking-details"
          className="rounded-lg border border-ink-700 bg-ink-850/80 p-5"
        >
          <h3
            id="booking-details"
            ref={formHeading}
            tabIndex={-1}
            className="text-lg font-semibold text-fg focus:outline-none"
          >
            Your details
          </h3>
          <p className="mt-2 text-sm text-muted">
            {seated ? `One seat of ${offer.name}` : offer.name}, {durationText(offer.minutes)}, on{' '}
            <span className="text-fg">
              {seated ? formatInZone(slot, zone) : `${longDate(chosen.date)} at ${slotLabel(slot)}`}
            </span>{' '}
            ({zone}).{' '}
            <button
              type="button"
              onClick={() => {
                setSlot(null);
                setEventId(null);
              }}
              className="font-mono text-term-cyan underline underline-offset-4 hover:text-fg focus-visible:outline-2 focus-visible:outline-term-cyan"
            >
              {seated ? 'Change date' : 'Change time'}
            </button>
          </p>
          {creditsLeft > 0 ? (
            <fieldset className="mt-4 flex flex-col gap-2 rounded-md border border-ink-700 p-3">
              <legend className="px-1 text-sm font-semibold text-fg">How to pay</legend>
              <label className="flex items-start gap-2 text-sm text-fg">
                <input
                  type="radio"
                  name="pay-with"
                  checked={useCredit}
                  onChange={() => setPayInstead(false)}
                  className="mt-1 accent-term-green"
                />
                <span>Use a credit ({creditsLeft} left): confirmed at once, nothing to pay</span>
              </label>
              <label className="flex items-start gap-2 text-sm text-fg">
                <input
                  type="radio"
                  name="pay-with"
                  checked={!useCredit}
                  onChange={() => setPayInstead(true)}
                  className="mt-1 accent-term-green"
                />
                <span>{free ? 'Book without a credit' : `Pay ${price}${memberNote} instead`}</span>
              </label>
            </fieldset>
          ) : null}
          <div className="mt-5">
            <BookingForm
              values={values}
              onChange={setValues}
              errors={errors}
              onErrors={setErrors}
              onSubmit={submit}
              busy={create.isPending}
              submitLabel={
                useCredit
                  ? 'Book with a credit'
                  : seated
                    ? pay
                      ? `Pay ${price} and take a seat`
                      : free
                        ? 'Take a seat'
                        : 'Request a seat'
                    : pay
                      ? `Pay ${price} and book${memberNote}`
                      : free
                        ? 'Book this time'
                        : 'Request this time'
              }
              busyLabel={pay ? 'Opening payment…' : 'Sending…'}
              note={
                useCredit
                  ? `One of your ${creditsLeft} credits pays for this call: it is confirmed at once, and cancelling before the cut-off gives the credit back.`
                  : pay
                    ? `You pay ${price}${memberNote} on Stripe's secure page; ${seated ? 'your seat is' : 'the time is'} held for you for 15 minutes while you do.`
                    : free
                      ? 'This session is free: it is confirmed at once and the invitation comes by e-mail.'
                      : `Nothing is charged now. ${siteContent().about.handle} confirms your request by e-mail, and payment (${price}${memberNote}) is arranged after confirmation.`
              }
            />
          </div>
        </section>
      ) : null}
    </div>
  );
}
