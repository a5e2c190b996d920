import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bundledContent } from '@/content/site';
import { renderRoute } from '@/test/render';

const { about } = bundledContent;

describe('About page', () => {
  it('shows the profile as a JSON block', async () => {
    renderRoute('/about');
    expect(await screen.findByRole('heading', { level: 1, name: 'About rUv' })).toBeInTheDocument();
    const block = screen.getByText(/"expertise"/).closest('pre') as HTMLElement;
    expect(block).toHaveTextContent('"name": "Reuven Cohen"');
    expect(block).toHaveTextContent('"handle": "rUv"');
    for (const item of about.expertise) expect(block).toHaveTextContent(`"${item}"`);
  });

  it('defines PACT with its four letters', async () => {
    renderRoute('/about');
    const pact = await screen.findByRole('region', { name: 'PACT' });
    expect(
      within(pact)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Proactive', 'Autonomous', 'Collaborative', 'Targeted']);
  });

  it('shows the philosophy cards, the clients grid and the biography', async () => {
    renderRoute('/about');
    const philosophy = await screen.findByRole('region', { name: 'How I work' });
    expect(within(philosophy).getAllByRole('heading', { level: 3 })).toHaveLength(
      about.philosophy.length,
    );
    const clients = screen.getByRole('region', { name: 'Clients and institutions' });
    expect(within(clients).getAllByRole('listitem')).toHaveLength(about.clients.length);
    const bio = screen.getByRole('region', { name: 'Biography' });
    for (const paragraph of about.biography) expect(bio).toHaveTextContent(paragraph);
  });

  it('shows the follower badges as outward links and links to booking', async () => {
    renderRoute('/about');
    const followers = await screen.findByRole('list', { name: 'Followers' });
    const badges = within(followers).getAllByRole('link');
    expect(badges).toHaveLength(about.followers.length);
    expect(badges[0]).toHaveTextContent('60K+');
    for (const badge of badges) expect(badge).toHaveAttribute('target', '_blank');
    expect(screen.getByRole('link', { name: 'Book a session' })).toHaveAttribute(
      'href',
      '/booking',
    );
  });
});
