import { ArrowRight, Check, Users } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Section } from '@/components/ui/section';
import { formatPrice } from '@/content/format';
import type { TribeOffer } from '@/content/types';
import { plural } from '@/lib/plural';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

/** The tribe: what members get, the monthly price, the member cap and the way in. */
export function TribeOfferSection({ tribe }: { tribe: TribeOffer }) {
  return (
    <Section id="tribe" eyebrow="community" title={tribe.name}>
      <Card className="mt-6 grid gap-6 border-term-green/40 p-6 sm:p-8 md:grid-cols-[1.4fr_1fr] md:items-center">
        <div>
          <p className="text-base text-muted">{tribe.summary}</p>
          <ul className="mt-4 space-y-2">
            {tribe.features.map((f) => (
              <li key={f} className="flex gap-2 text-sm text-fg">
                <Check size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
                {f}
              </li>
            ))}
          </ul>
        </div>
        <div className="rounded-md border border-ink-700 bg-ink-900 p-5 font-mono">
          <p className="text-3xl font-bold text-fg">
            {formatPrice(tribe.price_monthly, tribe.currency)}
            <span className="text-base font-normal text-muted">/month</span>
          </p>
          <p className="mt-1 text-sm text-muted">{tribe.billing}</p>
          <p className="mt-3 flex items-center gap-2 text-sm text-term-amber">
            <Users size={16} aria-hidden="true" />
            Limited to {plural(tribe.capacity, 'member')}
          </p>
          <Link
            to="/tribe"
            onClick={scrollToTopSmooth}
            className={buttonClasses('primary', 'md', 'mt-5 w-full')}
          >
            Explore the Tribe
            <ArrowRight size={16} aria-hidden="true" />
          </Link>
        </div>
      </Card>
    </Section>
  );
}
