import { QueryClientProvider } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { ApiError, errorMessage } from '@/lib/api';
import type { Report } from '@/lib/api-types/insights';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { createQueryClient } from '@/lib/query';
import { useSession } from '@/lib/session';
import { useInsights } from './api/get-insights';
import { countMeasure, moneyMeasure, rateMeasure, SeriesCard } from './components/SeriesCard';
import { formatMoney } from './lib/format';
import {
  checkRange,
  isoDay,
  PERIODS,
  type PeriodKind,
  presetRange,
  type Range,
} from './lib/period';

/**
 * /admin/insights: the owner's numbers (revenue, members, engagement) for a period. Who is an
 * admin is the server's decision; the page only spares others a request it would refuse.
 */
export function InsightsPage() {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <Page title="Insights">
        <PageHeader
          command="tribe insights"
          title="Insights"
          lead="Recurring revenue, members, bookings and turnout, replayed from the membership ledger."
        />
        <Gate />
      </Page>
    </QueryClientProvider>
  );
}

function Gate() {
  const state = useSession();
  if (state.status === 'unknown') {
    return (
      <p role="status" className="mt-8 font-mono text-sm text-muted">
        <span className="text-term-green">$</span> checking access…
      </p>
    );
  }
  if (state.status === 'signed-out' || !state.user.is_admin) {
    return (
      <Card className="mt-8 flex max-w-lg flex-col items-start gap-3">
        <h2 className="flex items-center gap-2 text-lg font-semibold text-fg">
          <ShieldAlert size={20} aria-hidden="true" className="text-term-red" />
          Admins only
        </h2>
        <p className="text-sm text-muted">
          Insights are for the site's administrators.{' '}
          {state.status === 'signed-out' ? (
            <a href="/auth" className="text-term-green underline underline-offset-2">
              Sign in
            </a>
          ) : null}
        </p>
      </Card>
    );
  }
  return <Insights />;
}

function Insights() {
  const today = isoDay(new Date());
  const [kind, setKind] = useState<PeriodKind>('30d');
  const [custom, setCustom] = useState<Range>(() => presetRange('90d', today));
  const range = kind === 'custom' ? custom : presetRange(kind, today);
  const query = useInsights(range);
  const serverField = query.error instanceof ApiError ? query.error.field : undefined;

  return (
    <div className="mt-8 flex flex-col gap-10">
      <PeriodPicker
        kind={kind}
        onKind={setKind}
        custom={custom}
        onCustom={setCustom}
        today={today}
        serverError={
          serverField ? { field: serverField, message: errorMessage(query.error) } : undefined
        }
      />
      {query.isPending ? (
        <p role="status" className="font-mono text-sm text-muted">
          <span className="text-term-green">$</span> replaying the ledger…
        </p>
      ) : query.isError && !serverField ? (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-md border border-term-red/50 bg-term-red/10 px-4 py-3 text-sm text-term-red"
        >
          {errorMessage(query.error)}
          <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      ) : query.data ? (
        <div
          aria-busy={query.isFetching}
          className={cn('flex flex-col gap-10', query.isFetching && 'opacity-70')}
        >
          <p className="sr-only" role="status">
            Showing {query.data.from} to {query.data.to}.
          </p>
          <Revenue report={query.data} />
          <Members report={query.data} />
          <Engagement report={query.data} />
        </div>
      ) : null}
    </div>
  );
}

function PeriodPicker({
  kind,
  onKind,
  custom,
  onCustom,
  today,
  serverError,
}: {
  kind: PeriodKind;
  onKind: (k: PeriodKind) => void;
  custom: Range;
  onCustom: (r: Range) => void;
  today: string;
  serverError?: { field: string; message: string };
}) {
  const [draft, setDraft] = useState<Range>(custom);
  const [errors, setErrors] = useState<Partial<Record<keyof Range, string>>>({});
  const apply = (e: FormEvent) => {
    e.preventDefault();
    const found = checkRange(draft, today);
    setErrors(found);
    if (!found.from && !found.to) onCustom(draft);
  };
  const fieldError = (f: keyof Range) =>
    errors[f] ?? (kind === 'custom' && serverError?.field === f ? serverError.message : undefined);
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium text-fg">Period</legend>
        <div className="flex flex-wrap gap-2">
          {PERIODS.map((p) => (
            <label
              key={p.kind}
              className={cn(
                'cursor-pointer rounded-md border px-3 py-2 font-mono text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-term-cyan',
                kind === p.kind
                  ? 'border-term-green bg-term-green/10 text-term-green'
                  : 'border-ink-600 text-muted hover:text-fg',
              )}
            >
              <input
                type="radio"
                name="period"
                value={p.kind}
                checked={kind === p.kind}
                onChange={() => onKind(p.kind)}
                className="sr-only"
              />
              {p.label}
            </label>
          ))}
        </div>
      </fieldset>
      {kind === 'custom' ? (
        <form onSubmit={apply} noValidate className="flex flex-wrap items-start gap-3">
          <DayField
            id="insights-from"
            label="First day"
            value={draft.from}
            max={today}
            error={fieldError('from')}
            onChange={(from) => setDraft({ ...draft, from })}
          />
          <DayField
            id="insights-to"
            label="Last day"
            value={draft.to}
            max={today}
            error={fieldError('to')}
            onChange={(to) => setDraft({ ...draft, to })}
          />
          <Button type="submit" size="sm" className="mt-6">
            Show
          </Button>
        </form>
      ) : null}
    </div>
  );
}

function DayField({
  id,
  label,
  value,
  max,
  error,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  max: string;
  error?: string;
  onChange: (v: string) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm text-muted">
        {label}
      </label>
      <input
        id={id}
        type="date"
        value={value}
        max={max}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="h-9 rounded-md border border-ink-600 bg-ink-850 px-2 font-mono text-sm text-fg [color-scheme:dark]"
      />
      {error ? (
        <p id={`${id}-error`} className="max-w-56 text-xs text-term-red">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Tile({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-lg border border-ink-700 bg-ink-850/80 px-4 py-3">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-1 font-mono text-xl font-semibold text-fg">{value}</dd>
      {note ? <dd className="mt-0.5 text-xs text-dim">{note}</dd> : null}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-4">
      <h2 className="text-2xl font-bold text-fg">{title}</h2>
      {children}
    </section>
  );
}

function Revenue({ report }: { report: Report }) {
  const cur = report.currency;
  const money = (v: number) => formatMoney(v, cur);
  const measure = moneyMeasure(cur);
  const t = report.totals;
  const suffix = `${report.from}_${report.to}`;
  return (
    <Section title="Revenue">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Tile label="Committed MRR" value={money(t.committed_mrr)} note="active, renewing" />
        <Tile label="At-risk MRR" value={money(t.at_risk_mrr)} note="set to cancel at period end" />
        <Tile
          label="Discounts"
          value={money(t.discount_mrr)}
          note="a month off list price, not in MRR"
        />
        <Tile label="Complimentary" value={t.complimentary} note="no revenue" />
        <Tile label="Net new MRR" value={money(t.net_new_mrr)} note="in this period" />
        <Tile label="Bookings, net" value={money(t.bookings_net)} note="one-off, not in MRR" />
        <Tile
          label="Packages, net"
          value={money(t.packages_net)}
          note={`${plural(t.packages_sold, 'package')} sold, not in MRR`}
        />
        <Tile
          label="One-off, net"
          value={money(t.one_off_net)}
          note="bookings and packages; credits count once"
        />
      </dl>
      {report.unpriced > 0 ? (
        <p className="rounded-md border border-term-amber/50 bg-term-amber/10 px-4 py-3 text-sm text-term-amber">
          {plural(report.unpriced, 'paying member has', 'paying members have')} no known price
          (memberships from before the ledger). Run <code>tribe billing reconcile --apply</code> to
          read the prices from Stripe.
        </p>
      ) : null}
      {report.other_currencies.length > 0 ? (
        <p className="text-sm text-muted">
          Not summed (another currency than the price's):{' '}
          {report.other_currencies
            .map(
              (o) =>
                `${formatMoney(o.mrr, o.currency)} MRR from ${plural(o.members, 'member')}, ${formatMoney(o.bookings_net, o.currency)} bookings, ${formatMoney(o.packages_net, o.currency)} packages`,
            )
            .join('; ')}
          .
        </p>
      ) : null}
      <SeriesCard
        title="MRR over time"
        description="Committed and at-risk recurring revenue at the end of each step."
        fileName={`mrr_${suffix}.csv`}
        chartTitle="MRR over time, committed and at risk"
        kind="line"
        items={report.points}
        x={{ label: 'Day', value: (p) => p.date }}
        measure={measure}
        columns={[
          { label: 'Committed', color: 'text-term-green', value: (p) => p.committed_mrr },
          { label: 'At risk', color: 'text-term-amber', value: (p) => p.at_risk_mrr },
        ]}
      />
      <SeriesCard
        title="Net new MRR by month"
        description="New and returning members and price changes above the line; leaving below."
        fileName={`net-new-mrr_${suffix}.csv`}
        chartTitle="Net new MRR by month"
        kind="stacked"
        items={report.months}
        x={{ label: 'Month', value: (m) => m.month }}
        measure={measure}
        columns={[
          { label: 'New', color: 'text-term-green', value: (m) => m.new_mrr },
          { label: 'Reactivated', color: 'text-term-cyan', value: (m) => m.reactivated_mrr },
          { label: 'Expansion', color: 'text-violet-400', value: (m) => m.expansion_mrr },
          { label: 'Contraction', color: 'text-term-amber', value: (m) => m.contraction_mrr },
          { label: 'Churned', color: 'text-term-red', value: (m) => m.churned_mrr },
          { label: 'Net', value: (m) => m.net_new_mrr },
        ]}
      />
      <SeriesCard
        title="One-off revenue by month"
        description="Bookings and trainings, and session packages sold: paid, refunded and what stayed. A call booked with a package's credit counts once, in the package. Never part of MRR."
        fileName={`one-off_${suffix}.csv`}
        chartTitle="One-off revenue by month: bookings and packages paid, refunded and net"
        kind="bars"
        items={report.months}
        x={{ label: 'Month', value: (m) => m.month }}
        measure={measure}
        columns={[
          { label: 'Bookings', color: 'text-term-cyan', value: (m) => m.bookings_gross },
          { label: 'Packages', color: 'text-violet-400', value: (m) => m.packages_revenue },
          {
            label: 'Refunded',
            color: 'text-term-red',
            value: (m) => m.bookings_refunded + m.packages_refunded,
          },
          { label: 'Net', color: 'text-term-green', value: (m) => m.one_off_net },
          { label: 'Bookings refunded', value: (m) => m.bookings_refunded },
          { label: 'Packages sold', value: (m) => m.packages_sold, measure: countMeasure },
          { label: 'Packages refunded', value: (m) => m.packages_refunded },
        ]}
      />
    </Section>
  );
}

function Members({ report }: { report: Report }) {
  const t = report.totals;
  const suffix = `${report.from}_${report.to}`;
  return (
    <Section title="Members">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Tile label="Paying" value={t.paying} />
        <Tile label="Complimentary" value={t.complimentary} />
        <Tile label="Free" value={t.free} note="accounts without membership" />
        <Tile label="Seats left" value={t.seats_left} note={`of ${t.capacity}`} />
        <Tile label="Wait list" value={t.waitlist} />
      </dl>
      <SeriesCard
        title="Members over time"
        fileName={`members_${suffix}.csv`}
        chartTitle="Paying, complimentary and free members over time"
        kind="line"
        items={report.points}
        x={{ label: 'Day', value: (p) => p.date }}
        measure={countMeasure}
        columns={[
          { label: 'Paying', color: 'text-term-green', value: (p) => p.paying },
          { label: 'Complimentary', color: 'text-term-cyan', value: (p) => p.complimentary },
          { label: 'Free', color: 'text-muted', value: (p) => p.free },
        ]}
      />
      <SeriesCard
        title="Seats left and wait list"
        description={`Seats left of the cap of ${t.capacity}, and people waiting for one.`}
        fileName={`seats-waitlist_${suffix}.csv`}
        chartTitle="Seats left and wait list size over time"
        kind="line"
        items={report.points}
        x={{ label: 'Day', value: (p) => p.date }}
        measure={countMeasure}
        columns={[
          { label: 'Seats left', color: 'text-term-green', value: (p) => p.seats_left },
          { label: 'Wait list', color: 'text-term-amber', value: (p) => p.waitlist },
        ]}
      />
      <SeriesCard
        title="Churn by month"
        description="Logo churn: paying members who left, of those paying at the start. Revenue churn: MRR lost to leaving and paying less, of the MRR at the start."
        fileName={`churn_${suffix}.csv`}
        chartTitle="Logo churn and revenue churn by month, in per cent"
        kind="bars"
        items={report.months}
        x={{ label: 'Month', value: (m) => m.month }}
        measure={rateMeasure}
        columns={[
          { label: 'Paying at start', measure: countMeasure, value: (m) => m.start_payers },
          { label: 'Left', measure: countMeasure, value: (m) => m.churned_payers },
          { label: 'Logo churn', color: 'text-term-red', value: (m) => m.logo_churn },
          { label: 'Revenue churn', color: 'text-term-amber', value: (m) => m.revenue_churn },
          { label: 'Joined wait list', measure: countMeasure, value: (m) => m.waitlist_joined },
          { label: 'Calls marked', measure: countMeasure, value: (m) => m.calls_marked },
          { label: 'No-show rate', color: 'text-term-red', value: (m) => m.no_show_rate },
        ]}
      />
    </Section>
  );
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 28" from an RFC 3339 start, as the chart's axis has room for. */
function shortDate(instant: string): string {
  return `${MONTHS[Number(instant.slice(5, 7)) - 1] ?? ''} ${Number(instant.slice(8, 10))}`;
}

function Engagement({ report }: { report: Report }) {
  const s = report.sessions;
  return (
    <Section title="Engagement">
      <p className="text-sm text-muted">
        Members at risk of drifting away are listed in the{' '}
        <a href="/members" className="text-term-green underline underline-offset-2">
          Admin tab of the members area
        </a>
        .
      </p>
      {s.length === 0 ? (
        <Card>
          <p className="text-sm text-muted">No live sessions started in this period.</p>
        </Card>
      ) : (
        <SeriesCard
          title="Session turnout"
          description="RSVP rate and attendance rate of the members with access when each session began; show-up is of those who said they would come."
          fileName={`sessions_${report.from}_${report.to}.csv`}
          chartTitle="RSVP rate and attendance rate per session, in per cent"
          kind="bars"
          items={s}
          x={{
            label: 'Session',
            value: (x) => `${x.starts_at.slice(0, 10)} ${x.title}`,
            // Sessions of one day would all read "11-28": the date, then the title, as room allows.
            short: (x) => `${shortDate(x.starts_at)} ${x.title}`,
          }}
          measure={rateMeasure}
          columns={[
            { label: 'Members', measure: countMeasure, value: (x) => x.members },
            { label: 'Going', measure: countMeasure, value: (x) => x.going },
            { label: 'Present', measure: countMeasure, value: (x) => x.present },
            { label: 'RSVP rate', color: 'text-term-cyan', value: (x) => x.rsvp_rate },
            { label: 'Attendance', color: 'text-term-green', value: (x) => x.attendance_rate },
            { label: 'Show-up', value: (x) => x.show_up_rate },
          ]}
        />
      )}
      <SeriesCard
        title="Replays watched by month"
        description="Recordings of the library members played, each counted once per member and recording in a month; the members who watched any; and the recordings they finished."
        fileName={`replays_${report.from}_${report.to}.csv`}
        chartTitle="Replays watched and members watching, by month"
        kind="bars"
        items={report.months}
        x={{ label: 'Month', value: (m) => m.month }}
        measure={countMeasure}
        columns={[
          { label: 'Replays watched', color: 'text-term-green', value: (m) => m.replays_watched },
          { label: 'Members watching', color: 'text-term-cyan', value: (m) => m.replay_viewers },
          { label: 'Finished', value: (m) => m.replays_finished },
        ]}
      />
    </Section>
  );
}
