import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormProblem } from '@/components/ui/form-problem';
import { errorMessage } from '@/lib/api';
import { getOffer, takeOffer } from './api/seat-waitlist';
import { formatInZone } from './time';

/**
 * The page a wait list offer's mail links to (`?offer=`): the date, until when the seat is held for
 * the reader, and the button to Stripe Checkout. An offer that ended says so and points back to the
 * dates.
 */
export function SeatOffer({
  token,
  zone,
  goToCheckout,
}: {
  token: string;
  zone: string;
  goToCheckout: (url: string) => void;
}) {
  const offer = useQuery({
    queryKey: ['booking', 'offer', token],
    queryFn: () => getOffer(token),
    retry: false,
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (offer.isPending) {
    return (
      <p role="status" className="text-sm text-muted">
        Loading your offer…
      </p>
    );
  }
  if (offer.isError) {
    return (
      <div role="alert" className="rounded-md border border-term-red/50 p-4 text-sm text-fg">
        <p>{errorMessage(offer.error)}</p>
        <a className="mt-2 inline-block underline" href="?">
          See the dates
        </a>
      </div>
    );
  }
  const o = offer.data.offer;
  const pay = async () => {
    setBusy(true);
    setProblem(null);
    try {
      goToCheckout((await takeOffer(token)).checkout_url);
    } catch (error) {
      setBusy(false);
      setProblem(errorMessage(error));
    }
  };
  return (
    <section
      aria-labelledby="seat-offer-heading"
      className="flex flex-col gap-3 rounded-md border border-term-green/50 bg-term-green/5 p-4"
    >
      <h2 id="seat-offer-heading" className="text-lg font-semibold text-fg">
        A seat is held for you
      </h2>
      <p className="text-sm text-fg">
        {o.event?.type_name ?? 'Group training'}: {o.event ? formatInZone(o.event.start, zone) : ''}
      </p>
      <p className="text-sm text-muted">
        Held for you until {formatInZone(o.expires_at, zone)}. After that it goes to the next person
        on the wait list.
      </p>
      {problem ? <FormProblem message={problem} /> : null}
      <Button className="self-start" disabled={busy} onClick={() => void pay()}>
        {busy ? 'Opening checkout…' : 'Pay for your seat'}
      </Button>
    </section>
  );
}
