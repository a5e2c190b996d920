import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/render';

describe('Home page', () => {
  it('shows the sessions and the tribe price from the content files', async () => {
    renderRoute('/');
    const services = await screen.findByRole('region', { name: 'Coaching services' });
    expect(within(services).getByText('$299')).toBeInTheDocument();
    expect(within(services).getByText('Most popular')).toBeInTheDocument();
    const tribe = screen.getByRole('region', { name: 'The Tribe' });
    expect(tribe).toHaveTextContent('$250/month');
    expect(tribe).toHaveTextContent('Limited to 50 members');
  });

  it('shows the console in its slot, its first transcript answering services and booking', {
    timeout: 20_000,
  }, async () => {
    const { container } = renderRoute('/');
    const slot = container.querySelector('[data-slot="console"]') as HTMLElement;
    expect(slot).not.toBeNull();
    const input = await within(slot).findByRole('textbox', { name: 'Console command' });
    expect(input).toHaveAttribute('placeholder', 'Type command...');
    expect(slot).toHaveTextContent('$299');
    expect(slot).toHaveTextContent('$250/month');
    expect(within(slot).getByRole('link', { name: 'Go to booking page' })).toHaveAttribute(
      'href',
      '/booking',
    );
  });

  it('lists the featured projects, four project cards and links to /projects', async () => {
    renderRoute('/');
    const featured = await screen.findByRole('region', { name: 'Featured Projects' });
    const links = within(featured).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(
      expect.arrayContaining(['AgentDB', 'Claude-Flow', 'Neural Trader']),
    );
    expect(within(featured).getByText('NEW')).toBeInTheDocument();
    expect(
      within(featured).getByRole('link', { name: /80\+ repositories on GitHub/ }),
    ).toHaveAttribute('href', '/projects');
    const more = screen.getByRole('region', { name: 'More from the workshop' });
    expect(within(more).getAllByRole('listitem')).toHaveLength(4);
  });

  it('opens the goal dialog for ?goal=true and closes it again', async () => {
    const { router } = renderRoute('/?goal=true');
    const dialog = await screen.findByRole('dialog', { name: /goal --plan/ });
    // The built-in planner, since the server names no external widget.
    const goal = await within(dialog).findByRole('textbox', { name: 'Your goal' });
    expect((goal as HTMLTextAreaElement).value).toMatch(/quantum computing/);
    expect(within(dialog).getByRole('button', { name: 'Plan my goal' })).toBeEnabled();
    expect(within(dialog).queryByTestId('goal-widget-mount')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Book a session' })).toHaveAttribute(
      'href',
      '/booking',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.location.search).toBe('');
  });

  it('leads with the headline, the tagline, About and Book a Session, and the console hint', () => {
    renderRoute('/');
    const h1 = screen.getByRole('heading', { level: 1 });
    expect(h1).toHaveTextContent('Agentic Coaching & Mentoring');
    const hero = h1.closest('section') as HTMLElement;
    expect(hero).toHaveTextContent('Personalized AI Mastery: One-on-One Consultations Available');
    expect(within(hero).getByRole('link', { name: /^About/ })).toHaveAttribute('href', '/about');
    expect(within(hero).getByRole('link', { name: 'Book a Session' })).toHaveAttribute(
      'href',
      '/booking',
    );
    expect(hero).toHaveTextContent(/Prefer the command line\?/);
    // The hint names the console's help and real commands (e2e/console.spec.ts runs them).
    const hint = within(hero).getByText(/Prefer the command line\?/);
    const named = [...hint.querySelectorAll('code')].map((c) => c.textContent ?? '');
    expect(named).toEqual(['help', 'services', 'booking', 'search <query>', 'ask <question>']);
  });

  it('links the three featured and four other projects outward, in new tabs', async () => {
    renderRoute('/');
    const featured = await screen.findByRole('region', { name: 'Featured Projects' });
    const headings = within(featured).getAllByRole('heading', { level: 3 });
    expect(headings).toHaveLength(3);
    const more = screen.getByRole('region', { name: 'More from the workshop' });
    for (const heading of [...headings, ...within(more).getAllByRole('heading', { level: 3 })]) {
      const link = within(heading).getByRole('link');
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
      expect(link).toHaveAttribute('target', '_blank');
    }
    expect(within(more).getByRole('link', { name: /View all projects/ })).toHaveAttribute(
      'href',
      '/projects',
    );
  });

  it('shows four insights, why-choose points and the code host and package registry links', async () => {
    renderRoute('/');
    const insights = await screen.findByRole('region', { name: 'Notes from building agents' });
    expect(within(insights).getAllByRole('listitem')).toHaveLength(4);
    const why = screen.getByRole('region', { name: 'Why work with rUv' });
    expect(within(why).getAllByRole('listitem').length).toBeGreaterThanOrEqual(3);
    const connect = within(screen.getByRole('main')).getByRole('region', { name: 'Connect' });
    expect(within(connect).getByRole('link', { name: /Code on GitHub/ })).toHaveAttribute(
      'href',
      'https://github.com/ruvnet',
    );
    expect(within(connect).getByRole('link', { name: /Packages on npm/ })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https:\/\/www\.npmjs\.com\//),
    );
  });

  it('ends with quick links to About, Projects and Booking', async () => {
    renderRoute('/');
    const quick = await screen.findByRole('navigation', { name: 'Quick links' });
    expect(
      within(quick)
        .getAllByRole('link')
        .map((l) => l.getAttribute('href')),
    ).toEqual(['/about', '/projects', '/booking']);
  });

  it('has no goal dialog without the flag', () => {
    renderRoute('/');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
