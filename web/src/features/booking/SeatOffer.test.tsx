import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SeatOffer } from './SeatOffer';
import { errorResponse, fakeServer, jsonResponse } from './test-server';

const token = 'tok_0123456789abcdefghijklmnop';

function show(goToCheckout = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SeatOffer token={token} zone="UTC" goToCheckout={goToCheckout} />
    </QueryClientProvider>,
  );
  return goToCheckout;
}

describe('A seat offered from the wait list', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says until when it is held and pays through Checkout', async () => {
    const server = fakeServer([
      ({ method, url }) =>
        method === 'GET' && url.pathname === `/api/booking/offers/${token}`
          ? jsonResponse(200, {
              offer: {
                event: { id: 'ev', type_name: 'Group Training', start: '2099-05-04T14:00:00Z' },
                name: 'Wanda',
                expires_at: '2099-05-01T12:00:00Z',
              },
            })
          : undefined,
      ({ method, url }) =>
        method === 'POST' && url.pathname === `/api/booking/offers/${token}/checkout`
          ? jsonResponse(200, { checkout_url: 'https://checkout.stripe.test/c/cs_offer' })
          : undefined,
    ]);
    const go = show();
    expect(
      await screen.findByRole('heading', { name: 'A seat is held for you' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/Held for you until/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Pay for your seat' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_offer'));
    expect(server.to('POST', `/api/booking/offers/${token}/checkout`)).toHaveLength(1);
  });

  it('says when the offer has ended', async () => {
    fakeServer([
      ({ method, url }) =>
        method === 'GET' && url.pathname === `/api/booking/offers/${token}`
          ? errorResponse(404, 'not_found', 'This offer has ended or does not exist.')
          : undefined,
    ]);
    show();
    expect(await screen.findByRole('alert')).toHaveTextContent('This offer has ended');
    expect(screen.queryByRole('button', { name: 'Pay for your seat' })).toBeNull();
  });
});
