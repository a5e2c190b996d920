import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Report } from '@/lib/api-types/insights';
import { ada, apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { renderRoute } from '@/test/render';
import { isoDay, presetRange, type Range } from './lib/period';

const admin = { ...ada, is_admin: true };

/** The value shown under a figure's label. */
function figure(scope: HTMLElement, label: string) {
  const term = within(scope).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent;
}

function path(r: Range) {
  return `/api/admin/insights?from=${r.from}&to=${r.to}`;
}

function report(r: Range, committed: number): Report {
  return {
    from: r.from,
    to: r.to,
    currency: 'usd',
    totals: {
      committed_mrr: committed,
      at_risk_mrr: 1500,
      discount_mrr: 0,
      paying: 2,
      complimentary: 1,
      free: 4,
      capacity: 50,
      seats_left: 47,
      waitlist: 3,
      net_new_mrr: committed,
      bookings_gross: 29900,
      bookings_refunded: 0,
      bookings_net: 29900,
      packages_sold: 2,
      packages_revenue: 179800,
      packages_refunded: 99900,
      packages_net: 79900,
      one_off_net: 109800,
      calls_marked: 0,
      no_shows: 0,
      no_show_rate: null,
    },
    months: [
      {
        month: r.to.slice(0, 7),
        start: r.from,
        end: r.to,
        start_mrr: 0,
        end_mrr: committed + 1500,
        new_mrr: committed + 1500,
        reactivated_mrr: 0,
        expansion_mrr: 0,
        contraction_mrr: 0,
        churned_mrr: 0,
        net_new_mrr: committed + 1500,
        start_payers: 0,
        new_payers: 2,
        churned_payers: 0,
        logo_churn: null,
        revenue_churn: null,
        bookings_gross: 29900,
        bookings_refunded: 0,
        bookings_net: 29900,
        packages_sold: 2,
        packages_revenue: 179800,
        packages_refunded: 99900,
        packages_net: 79900,
        one_off_net: 109800,
        waitlist_joined: 1,
        replays_watched: 4,
        replay_viewers: 3,
        replays_finished: 2,
        calls_marked: 4,
        no_shows: 1,
        no_show_rate: 0.25,
      },
    ],
    points: [
      {
        date: r.to,
        paying: 2,
        complimentary: 1,
        free: 4,
        committed_mrr: committed,
        at_risk_mrr: 1500,
        discount_mrr: 0,
        seats_left: 47,
        waitlist: 3,
      },
    ],
    sessions: [],
    other_currencies: [],
    unpriced: 0,
  };
}

describe('InsightsPage', { timeout: 20_000 }, () => {
  beforeEach(resetAuthState);
  afterEach(resetAuthState);

  it('shows an admin the MRR, and the numbers of the period picked', async () => {
    const today = isoDay(new Date());
    const d30 = presetRange('30d', today);
    const d90 = presetRange('90d', today);
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      [`GET ${path(d30)}`]: () => json(200, report(d30, 2500)),
      [`GET ${path(d90)}`]: () => json(200, report(d90, 7500)),
    });
    renderRoute('/admin/insights');
    const revenue = await screen.findByRole('region', { name: 'Revenue' }, { timeout: 10_000 });
    expect(figure(revenue, 'Committed MRR')).toBe('$25.00');
    expect(figure(revenue, 'At-risk MRR')).toBe('$15.00'); // apart, never dropped
    expect(figure(revenue, 'Bookings, net')).toBe('$299.00');
    expect(figure(revenue, 'Packages, net')).toBe('$799.00');
    expect(figure(revenue, 'One-off, net')).toBe('$1,098.00');
    expect(within(revenue).getByText('2 packages sold, not in MRR')).toBeVisible();
    const oneOff = screen.getByRole('table', { name: 'One-off revenue by month' });
    expect(
      within(oneOff)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual([
      'Month',
      'Bookings',
      'Packages',
      'Refunded',
      'Net',
      'Bookings refunded',
      'Packages sold',
      'Packages refunded',
    ]);
    const oneOffMonth = within(oneOff).getByRole('rowheader', { name: d30.to.slice(0, 7) });
    expect(
      within(oneOffMonth.closest('tr') as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['$299.00', '$1,798.00', '$999.00', '$1,098.00', '$0.00', '2', '$999.00']);
    const table = screen.getByRole('table', { name: 'MRR over time' });
    expect(within(table).getByRole('rowheader', { name: d30.to })).toBeVisible();
    expect(screen.getByRole('img', { name: 'MRR over time, committed and at risk' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Download the CSV of MRR over time' })).toBeVisible();
    const replays = screen.getByRole('table', { name: 'Replays watched by month' });
    const month = within(replays).getByRole('rowheader', { name: d30.to.slice(0, 7) });
    const cells = within(month.closest('tr') as HTMLElement).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['4', '3', '2']);
    expect(
      screen.getByRole('img', { name: 'Replays watched and members watching, by month' }),
    ).toBeVisible();

    await userEvent.click(screen.getByRole('radio', { name: 'Last 90 days' }));
    await waitFor(() => expect(figure(revenue, 'Committed MRR')).toBe('$75.00'));
    expect(api.to('GET', path(d90))).toHaveLength(1);
    expect(screen.getByText('No live sessions started in this period.')).toBeVisible();
  });

  it('checks a custom range before asking, and shows the server refusal by its field', async () => {
    const today = isoDay(new Date());
    const d30 = presetRange('30d', today);
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      [`GET ${path(d30)}`]: () => json(200, report(d30, 2500)),
      'GET /api/admin/insights?from=2020-01-01&to=2020-01-31': () =>
        apiError(400, 'invalid', 'The first day is too early.', 'from'),
    });
    renderRoute('/admin/insights');
    await screen.findByRole('region', { name: 'Revenue' }, { timeout: 10_000 });
    await userEvent.click(screen.getByRole('radio', { name: 'Custom range' }));
    const from = screen.getByLabelText('First day');
    const to = screen.getByLabelText('Last day');
    await userEvent.clear(from);
    await userEvent.type(from, '2020-02-01');
    await userEvent.clear(to);
    await userEvent.type(to, '2020-01-31');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(from).toHaveAccessibleDescription('The first day must not be after the last day.');
    expect(api.calls.filter((c) => c.path.includes('2020-'))).toHaveLength(0);

    await userEvent.clear(from);
    await userEvent.type(from, '2020-01-01');
    await userEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(from).toHaveAccessibleDescription('The first day is too early.'));
  });

  it('tells a member who is not an admin, and asks the server nothing', async () => {
    const api = mockApi({ 'GET /api/auth/session': () => json(200, { user: ada }) });
    renderRoute('/admin/insights');
    expect(await screen.findByRole('heading', { name: 'Admins only' })).toBeVisible();
    expect(api.calls.filter((c) => c.path.startsWith('/api/admin/'))).toHaveLength(0);
  });

  it('offers to try again when the server fails', async () => {
    const today = isoDay(new Date());
    const d30 = presetRange('30d', today);
    let fail = true;
    mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      [`GET ${path(d30)}`]: () =>
        fail ? apiError(500, 'internal', 'Something broke.') : json(200, report(d30, 2500)),
    });
    renderRoute('/admin/insights');
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent('Something broke.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Revenue' })).toBeVisible();
  });
});
