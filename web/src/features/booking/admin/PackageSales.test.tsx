import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import { structuralViolations } from '@/test/axe';
import type { PackageSale } from '../api/types';
import { errorResponse, fakeServer, jsonResponse, type Route } from '../test-server';
import { PackageSales } from './PackageSales';

afterEach(() => {
  session.dispose();
  vi.unstubAllGlobals();
});

function sale(overrides: Partial<PackageSale> = {}): PackageSale {
  return {
    id: 'p1',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    package: 'deep-dive-4',
    package_name: '4 Deep Dives',
    credits: 4,
    spent: 1,
    left: 3,
    amount_paid: 79900,
    currency: 'USD',
    status: 'paid',
    paid_at: '2026-03-03T15:00:00Z',
    expires_at: '2027-03-04T04:59:59Z',
    ...overrides,
  };
}

const route =
  (answer: () => Response | Promise<Response>): Route =>
  ({ method, url }) =>
    method === 'GET' && url.pathname === '/api/admin/booking/packages' ? answer() : undefined;

function renderSales(routes: Route[]) {
  const server = fakeServer(routes);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PackageSales ownerZone="America/Toronto" />
    </QueryClientProvider>,
  );
  return server;
}

describe('PackageSales', () => {
  it('lists the purchases with buyer, credits, amount, status and dates on the owner’s clock', async () => {
    let answer: (r: Response) => void = () => {};
    const server = renderSales([
      route(
        () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
      ),
    ]);
    expect(await screen.findByText('Loading packages…')).toBeInTheDocument();
    answer(
      jsonResponse(200, {
        purchases: [
          sale(),
          sale({
            id: 'p2',
            name: 'Bob Babbage',
            email: 'bob@example.com',
            spent: 2,
            left: 0,
            amount_paid: 99900,
            status: 'refunded',
          }),
          sale({
            id: 'p3',
            name: 'Cy',
            email: 'cy@example.com',
            spent: 4,
            left: 0,
            status: 'lapsed',
          }),
        ],
      }),
    );
    const list = await screen.findByRole('list', { name: 'Session packages' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    const ada = within(rows[0] as HTMLElement);
    expect(ada.getByText('4 Deep Dives')).toBeInTheDocument();
    expect(ada.getByText(/^\$799\s*$/)).toBeInTheDocument();
    expect(ada.getByText('Paid')).toBeInTheDocument();
    expect(ada.getByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
      'href',
      'mailto:ada@example.com',
    );
    // Bought at 10:00 in Toronto on March 3; the credits lapse at the end of March 3, 2027 there.
    expect(
      ada.getByText('1 of 4 spent · 3 left · bought Mar 3, 2026 · lapses Mar 3, 2027'),
    ).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText('Refunded')).toBeInTheDocument();
    expect(within(rows[1] as HTMLElement).getByText(/2 of 4 spent · 0 left/)).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText(/lapsed Mar 3, 2027/)).toBeInTheDocument();
    expect(screen.getByText(/1 package with credits in use\./)).toBeInTheDocument();
    expect(server.to('GET', '/api/admin/booking/packages')).toHaveLength(1);
    expect(await structuralViolations(list.parentElement as HTMLElement)).toEqual([]);
  });

  it('says when nothing was bought yet', async () => {
    renderSales([route(() => jsonResponse(200, { purchases: [] }))]);
    expect(await screen.findByText('No packages bought yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('says when the list could not be loaded', async () => {
    renderSales([route(() => errorResponse(403, 'forbidden', 'Admins only.'))]);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The packages could not be loaded: Admins only.',
    );
  });
});
