import { Package } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { usePackageSales } from '../api/admin-packages';
import type { PackageSale } from '../api/types';
import { formatMinor } from '../time';

const STATUS_WORDS: Record<PackageSale['status'], string> = {
  paid: 'Paid',
  refunded: 'Refunded',
  lapsed: 'Lapsed',
};

const STATUS_TONE: Record<PackageSale['status'], string> = {
  paid: 'text-term-green',
  refunded: 'text-term-red',
  lapsed: 'text-dim',
};

/** A day on the owner's clock: "Dec 7, 2026". */
function day(instant: string, zone: string): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  try {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: zone }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(at);
  }
}

/** The session packages bought, newest first: who, what, the credits used and what was paid. */
export function PackageSales({ ownerZone }: { ownerZone: string }) {
  const query = usePackageSales();
  const list = query.data?.purchases ?? [];
  const active = list.filter((p) => p.status === 'paid').length;
  return (
    <Card>
      <h3
        id="admin-packages-heading"
        className="flex items-center gap-2 text-lg font-semibold text-fg"
      >
        <Package size={18} aria-hidden="true" className="text-term-cyan" />
        Session packages
      </h3>
      <p className="mt-1 text-sm text-muted">
        Packages bought, newest first, with the credits spent and left.
        {query.data ? ` ${plural(active, 'package', 'packages')} with credits in use.` : ''}
      </p>
      <div className="mt-4">
        {query.isPending ? (
          <p className="text-sm text-muted">Loading packages…</p>
        ) : query.isError ? (
          <p role="alert" className="text-sm text-fg">
            The packages could not be loaded: {errorMessage(query.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted">No packages bought yet.</p>
        ) : (
          <ul aria-labelledby="admin-packages-heading" className="flex flex-col gap-2">
            {list.map((p) => (
              <SaleRow key={p.id} sale={p} ownerZone={ownerZone} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

function SaleRow({ sale: p, ownerZone }: { sale: PackageSale; ownerZone: string }) {
  return (
    <li className="rounded-md border border-ink-700 bg-ink-900/60 px-3 py-2 text-sm">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <span className="font-semibold text-fg">{p.package_name}</span>
        <span className="font-mono text-fg">
          {formatMinor(p.amount_paid, p.currency)}{' '}
          <span className={cn('text-xs', STATUS_TONE[p.status])}>{STATUS_WORDS[p.status]}</span>
        </span>
      </div>
      <p className="mt-0.5 text-muted">
        {p.name} ·{' '}
        <a
          href={`mailto:${p.email}`}
          className="break-all text-term-cyan underline underline-offset-4"
        >
          {p.email}
        </a>
      </p>
      <p className="mt-0.5 text-muted">
        {p.spent} of {p.credits} spent · {p.left} left · bought {day(p.paid_at, ownerZone)} ·{' '}
        {p.status === 'lapsed' ? 'lapsed' : 'lapses'} {day(p.expires_at, ownerZone)}
      </p>
    </li>
  );
}
