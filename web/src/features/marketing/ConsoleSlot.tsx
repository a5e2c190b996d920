import { ArrowRight } from 'lucide-react';
import { TerminalWindow } from '@/components/ui/terminal-window';
import { formatPrice } from '@/content/format';
import type { ConsoleContent } from '@/content/home';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

export interface ConsoleSlotProps {
  content: ConsoleContent;
}

/**
 * The console's place on Home. Until the interactive console takes this slot it shows, as a
 * transcript, what its `services` and `booking` commands answer, from the same content files.
 */
export function ConsoleSlot({ content }: ConsoleSlotProps) {
  const { sessions, tribe, currency } = content;
  return (
    <div data-slot="console" className="min-w-0 motion-safe:animate-fade-up">
      <TerminalWindow title="ruv@io: ~ (console)">
        <p>
          <span className="text-term-green">$</span> <span className="text-fg">services</span>
        </p>
        <ul className="mt-2 space-y-1.5" aria-label="One-on-one sessions">
          {sessions.map((s) => (
            <li key={s.id} className="flex items-baseline gap-3">
              <span className="w-14 shrink-0 text-term-cyan">{s.duration} min</span>
              <span className="min-w-0 flex-1 truncate text-muted">
                {s.name}
                {s.popular ? <span className="ml-2 text-term-amber">★ popular</span> : null}
              </span>
              <span className="text-fg tabular-nums">{formatPrice(s.price, currency)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-muted">
          {tribe.name.toLowerCase()}:{' '}
          <span className="text-fg">{formatPrice(tribe.price_monthly, tribe.currency)}/month</span>,{' '}
          live sessions of {tribe.session_length}, {tribe.session_cadence}, cohorts of about{' '}
          {tribe.cohort_size}.
        </p>
        <p className="mt-4">
          <span className="text-term-green">$</span> <span className="text-fg">booking</span>
        </p>
        <p className="mt-2 text-muted">Sessions are booked on an external scheduling page.</p>
        <Link
          to="/booking"
          onClick={scrollToTopSmooth}
          className="mt-1 inline-flex items-center gap-1.5 text-term-cyan hover:underline"
        >
          Go to booking page
          <ArrowRight size={14} aria-hidden="true" />
        </Link>
        <p className="mt-4">
          <span className="text-term-green">$</span>
          <span
            aria-hidden="true"
            className="ml-2 inline-block h-4 w-2 translate-y-0.5 bg-term-green motion-safe:animate-blink"
          />
        </p>
      </TerminalWindow>
    </div>
  );
}
