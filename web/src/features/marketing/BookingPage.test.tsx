import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledContent } from '@/content/site';
import { apiError, json, mockApi } from '@/test/mock-api';
import { renderRoute } from '@/test/render';

afterEach(() => {
  document.getElementById('tribe-content')?.remove();
});

describe('Booking page', () => {
  it('shows the three sessions with their prices from the content files', async () => {
    renderRoute('/booking');
    const cards = await screen.findAllByTestId('session-card');
    expect(cards.map((c) => within(c).getByText(/^\$/).textContent)).toEqual([
      '$149',
      '$299',
      '$499',
    ]);
    expect(within(cards[1] as HTMLElement).getByText('★ Most popular')).toBeInTheDocument();
    // The sessions are booked on the site: Book Now opens their page in the same tab.
    expect(
      cards.map((c) =>
        within(c)
          .getByRole('link', { name: /^Book Now/ })
          .getAttribute('href'),
      ),
    ).toEqual(['/book/session-15', '/book/session-30', '/book/session-60']);
    for (const card of cards) {
      expect(within(card).getByRole('link', { name: /^Book Now/ })).not.toHaveAttribute('target');
    }
  });

  it('shows the training cards with the struck-through original price and the badges', async () => {
    renderRoute('/booking');
    const cards = await screen.findAllByTestId('training-card');
    expect(cards).toHaveLength(3);
    const priv = cards[1] as HTMLElement;
    expect(within(priv).getByText('$3,000')).toBeInTheDocument();
    expect(priv.querySelector('s')).toHaveTextContent('was $5,000');
    expect(within(priv).getByText('Limited time')).toBeInTheDocument();
    expect(within(cards[0] as HTMLElement).getByText('★ Popular')).toBeInTheDocument();
  });

  it('makes every session card 450 px high', async () => {
    renderRoute('/booking');
    const cards = await screen.findAllByTestId('session-card');
    expect(cards).toHaveLength(3);
    for (const card of cards) expect(card).toHaveClass('min-h-[450px]');
  });

  it('strikes through only the prices that were cut', async () => {
    renderRoute('/booking');
    const cards = await screen.findAllByTestId('training-card');
    expect(cards.map((c) => c.querySelector('s')?.textContent ?? null)).toEqual([
      null,
      'was $5,000',
      null,
    ]);
    expect(cards.map((c) => within(c).getAllByText(/^\$[\d,]+$/)[0]?.textContent)).toEqual([
      '$500',
      '$3,000',
      '$50,000',
    ]);
    // Group and private training are booked on the site, in the same tab; the enterprise
    // package opens the inquiry form on this page instead of a mail link.
    const links = cards.slice(0, 2).map((c) => within(c).getByRole('link'));
    expect(links.map((l) => l.getAttribute('href'))).toEqual(['/book/group', '/book/private']);
    expect(links.map((l) => l.getAttribute('target'))).toEqual([null, null]);
    const enterprise = within(cards[2] as HTMLElement).getByRole('button', {
      name: 'Contact for Enterprise',
    });
    expect(enterprise).toHaveAttribute('aria-expanded', 'false');
    expect(within(cards[2] as HTMLElement).queryByRole('link')).toBeNull();
  });

  // Typing a whole form takes a while on a busy machine.
  it('opens the enterprise inquiry form, names a refused field and thanks the sender', {
    timeout: 20_000,
  }, async () => {
    const api = mockApi({
      'POST /api/inquiries': (body) => {
        const b = body as { team_size: number };
        return b.team_size > 500
          ? apiError(400, 'invalid', 'Team size is too large for this form.', 'team_size')
          : json(201, { id: 'q1', created_at: '2026-11-26T10:00:00Z' });
      },
    });
    const user = userEvent.setup();
    renderRoute('/booking');
    const button = await screen.findByRole('button', { name: 'Contact for Enterprise' });
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    const form = await screen.findByRole('form', { name: 'Enterprise Package inquiry' });
    await user.click(within(form).getByRole('button', { name: 'Send inquiry' }));
    expect(within(form).getByLabelText('Your name')).toHaveAccessibleDescription(
      'Please enter your name.',
    );
    expect(api.to('POST', '/api/inquiries')).toHaveLength(0);
    await user.type(within(form).getByLabelText('Your name'), 'Grace Hopper');
    await user.type(within(form).getByLabelText('Work e-mail'), 'grace@fleet.example');
    await user.type(within(form).getByLabelText('Company'), 'Fleet Analytics');
    await user.type(within(form).getByLabelText(/^Team size/), '900');
    await user.type(within(form).getByLabelText('What would your team like?'), 'Training.');
    await user.click(within(form).getByRole('button', { name: 'Send inquiry' }));
    const size = within(form).getByLabelText(/^Team size/);
    await waitFor(() => expect(size).toHaveAttribute('aria-invalid', 'true'));
    expect(size).toHaveFocus();
    await user.clear(size);
    await user.type(size, '12');
    await user.click(within(form).getByRole('button', { name: 'Send inquiry' }));
    expect(await screen.findByRole('status')).toHaveTextContent('grace@fleet.example');
    expect(api.to('POST', '/api/inquiries').at(-1)?.body).toEqual({
      name: 'Grace Hopper',
      email: 'grace@fleet.example',
      company: 'Fleet Analytics',
      team_size: 12,
      message: 'Training.',
      preferred_start: '',
    });
  });

  it('goes to the booking page of a native card in the same tab', async () => {
    const { router } = renderRoute('/booking');
    const cards = await screen.findAllByTestId('session-card');
    within(cards[1] as HTMLElement)
      .getByRole('link', { name: /^Book Now/ })
      .click();
    expect(router.location.pathname).toBe('/book/session-30');
  });

  it('says that booking happens on the site, in the lead and how it works', async () => {
    renderRoute('/booking');
    await screen.findAllByTestId('session-card');
    expect(screen.getByText(/book it right here/)).toBeInTheDocument();
    const how = screen.getByRole('region', { name: 'How it works' });
    expect(how).toHaveTextContent(/book it on this site/);
    expect(how).not.toHaveTextContent(/new tab/);
  });

  it('explains how booking works and answers the frequent questions', async () => {
    renderRoute('/booking');
    const how = await screen.findByRole('region', { name: 'How it works' });
    expect(within(how).getAllByRole('listitem')).toHaveLength(
      bundledContent.services.how_it_works.length,
    );
    const faq = screen.getByRole('region', { name: 'Frequently asked questions' });
    const questions = faq.querySelectorAll('details > summary');
    expect([...questions].map((q) => q.firstChild?.textContent)).toEqual(
      bundledContent.services.faq.map((f) => f.question),
    );
  });

  it('links the tribe card to /tribe', async () => {
    renderRoute('/booking');
    const region = await screen.findByRole('region', { name: 'Tribe membership' });
    expect(within(region).getByRole('link', { name: 'The Tribe' })).toHaveAttribute(
      'href',
      '/tribe',
    );
  });

  it('uses the content the server injected, and disables Book for a card without a link', async () => {
    const content = structuredClone(bundledContent);
    const first = content.services.sessions[0];
    if (!first) throw new Error('no sessions in the content');
    first.price = 175;
    // An owner who takes bookings elsewhere, paused for now.
    delete first.booking;
    first.booking_link = '';
    const element = document.createElement('script');
    element.id = 'tribe-content';
    element.type = 'application/json';
    element.textContent = JSON.stringify(content);
    document.body.append(element);

    renderRoute('/booking');
    const cards = await screen.findAllByTestId('session-card');
    const card = cards[0] as HTMLElement;
    expect(within(card).getByText('$175')).toBeInTheDocument();
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: /^Book Now/ })).toBeDisabled();
    expect(within(cards[1] as HTMLElement).getByRole('link', { name: /^Book Now/ })).toBeEnabled();
  });
});
