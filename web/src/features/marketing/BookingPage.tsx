import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { cn } from '@/lib/cn';

const sessions = [
  { minutes: 15, price: 149, text: 'A focused question, a quick review, a second opinion.' },
  { minutes: 30, price: 299, text: 'Work through a design or a blocker in depth.', popular: true },
  { minutes: 60, price: 499, text: 'Architecture review or hands-on pairing on your system.' },
] as const;

export function BookingPage() {
  return (
    <Page title="Booking">
      <PageHeader
        command="book --session"
        title="Booking & pricing"
        lead="One-to-one sessions on agentic AI, booked on an external scheduling page. Nothing about your booking is sent to this site."
      />
      <ul className="mt-12 grid gap-4 md:grid-cols-3">
        {sessions.map((s) => (
          <li key={s.minutes}>
            <Card className={cn('h-full', 'popular' in s && s.popular && 'border-term-green/60')}>
              <p className="font-mono text-sm text-term-cyan">{s.minutes} minutes</p>
              <p className="mt-2 font-mono text-3xl font-bold text-fg">${s.price}</p>
              <p className="mt-3 text-sm text-muted">{s.text}</p>
              {'popular' in s && s.popular ? (
                <p className="mt-4 font-mono text-xs text-term-amber">★ most popular</p>
              ) : null}
            </Card>
          </li>
        ))}
      </ul>
    </Page>
  );
}
