import { ArrowRight } from 'lucide-react';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

const quickLinks = [
  { to: '/about', label: 'About rUv' },
  { to: '/projects', label: 'Projects' },
  { to: '/booking', label: 'Book a Session' },
] as const;

/** The main pages as large links, for phones, where the header folds them into a menu. */
export function QuickLinks() {
  return (
    <nav aria-labelledby="quick-links" className="mt-16 md:hidden">
      <h2 id="quick-links" className="font-mono text-sm uppercase tracking-[0.18em] text-dim">
        Quick links
      </h2>
      <ul className="mt-4 grid gap-2">
        {quickLinks.map((l) => (
          <li key={l.to}>
            <Link
              to={l.to}
              onClick={scrollToTopSmooth}
              className="flex items-center justify-between rounded-md border border-ink-700 bg-ink-850/60 px-4 py-3 font-mono text-sm text-fg hover:border-term-green/60"
            >
              {l.label}
              <ArrowRight size={16} aria-hidden="true" className="text-dim" />
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
