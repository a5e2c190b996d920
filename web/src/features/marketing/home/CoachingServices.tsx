import { CalendarClock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Section } from '@/components/ui/section';
import { formatPrice } from '@/content/format';
import type { Session } from '@/content/types';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

/** The coaching sessions with their prices, and the way to book one. */
export function CoachingServices({
  sessions,
  currency,
}: {
  sessions: Session[];
  currency: string;
}) {
  return (
    <Section
      id="services"
      eyebrow="coaching"
      title="Coaching services"
      lead="One-on-one video sessions on agentic AI, booked right here: pick a free time in your own time zone."
    >
      <ul className="mt-6 grid gap-4 md:grid-cols-3">
        {sessions.map((s) => (
          <li key={s.id}>
            <Card className={s.popular ? 'h-full border-term-green/60' : 'h-full'}>
              <div className="flex items-center justify-between gap-2">
                <p className="font-mono text-sm text-term-cyan">{s.duration} minutes</p>
                {s.popular ? <Badge tone="amber">Most popular</Badge> : null}
              </div>
              <h3 className="mt-2 font-semibold text-fg">{s.name}</h3>
              <p className="mt-1 font-mono text-3xl font-bold text-fg">
                {formatPrice(s.price, currency)}
              </p>
              <p className="mt-3 text-sm text-muted">{s.description}</p>
            </Card>
          </li>
        ))}
      </ul>
      <p className="mt-5">
        <Link to="/booking" onClick={scrollToTopSmooth} className={buttonClasses('primary', 'md')}>
          <CalendarClock size={16} aria-hidden="true" />
          See booking options
        </Link>
      </p>
    </Section>
  );
}
