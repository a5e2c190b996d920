import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledContent } from '@/content/site';
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
    // Private training is booked on the site; group training and the enterprise package keep
    // their external links, in a new tab.
    const links = cards.map((c) => within(c).getByRole('link'));
    expect(links.map((l) => l.getAttribute('target'))).toEqual(['_blank', null, '_blank']);
    expect(links[1]).toHaveAttribute('href', '/book/private');
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
