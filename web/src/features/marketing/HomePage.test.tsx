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

  it('keeps a console slot whose booking answer links to the booking page', () => {
    const { container } = renderRoute('/');
    const slot = container.querySelector('[data-slot="console"]');
    expect(slot).not.toBeNull();
    expect(slot).toHaveTextContent('$299');
    expect(
      within(slot as HTMLElement).getByRole('link', { name: 'Go to booking page' }),
    ).toHaveAttribute('href', '/booking');
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
    expect(within(dialog).getByTestId('goal-widget-mount')).toBeEmptyDOMElement();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.location.search).toBe('');
  });

  it('has no goal dialog without the flag', () => {
    renderRoute('/');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
