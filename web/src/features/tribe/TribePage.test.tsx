import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/test/render';

function respond(status: number, body: unknown) {
  return vi.fn(
    async () =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Tribe landing', () => {
  it('shows the spots left from /api/tribe/status', async () => {
    const fetchMock = respond(200, {
      capacity: 50,
      active_members: 12,
      spots_left: 38,
      at_capacity: false,
    });
    vi.stubGlobal('fetch', fetchMock);
    renderRoute('/tribe');
    expect(await screen.findAllByText('38 spots left of 50')).toHaveLength(2);
    expect(fetchMock).toHaveBeenCalledWith('/api/tribe/status', expect.anything());
    expect(screen.queryByText('At Capacity')).not.toBeInTheDocument();
  });

  it('shows At Capacity and leads with the wait list when the tribe is full', async () => {
    vi.stubGlobal(
      'fetch',
      respond(200, { capacity: 50, active_members: 50, spots_left: 0, at_capacity: true }),
    );
    renderRoute('/tribe');
    expect(await screen.findAllByText('At Capacity')).toHaveLength(2);
    // Hero, step 2 and the closing call to action each offer both buttons.
    const waitlist = screen.getAllByRole('button', { name: 'Join Wait List' });
    const login = screen.getAllByRole('button', { name: 'Login' });
    expect(waitlist).toHaveLength(3);
    expect(login).toHaveLength(3);
    expect(waitlist[0]?.className).toContain('bg-term-green');
    expect(login[0]?.className).not.toContain('bg-term-green');
  });

  it('keeps the neutral cap from the content when the status cannot be had', async () => {
    vi.stubGlobal('fetch', respond(404, { error: { code: 'not_found', message: 'no' } }));
    renderRoute('/tribe');
    const hero = await screen.findByRole('heading', { level: 1, name: 'The Tribe' });
    expect(hero).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Limited to 50 members');
    expect(screen.queryByText('At Capacity')).not.toBeInTheDocument();
  });

  it('offers Join Wait List and Login in the hero, in step 2 and in the closing call to action', async () => {
    vi.stubGlobal('fetch', respond(404, {}));
    renderRoute('/tribe');
    const hero = (await screen.findByRole('heading', { level: 1, name: 'The Tribe' })).closest(
      'section',
    ) as HTMLElement;
    expect(hero).toHaveTextContent('Build agentic AI with a small cohort of builders.');
    const step2 = within(screen.getByRole('region', { name: 'How it works' }))
      .getAllByRole('listitem')
      .at(1) as HTMLElement;
    const closing = screen.getByRole('region', { name: 'Ready to build with the tribe?' });
    for (const place of [hero, step2, closing]) {
      expect(within(place).getByRole('button', { name: 'Join Wait List' })).toBeInTheDocument();
      expect(within(place).getByRole('button', { name: 'Login' })).toBeInTheDocument();
    }
    expect(screen.getAllByRole('button', { name: 'Join Wait List' })).toHaveLength(3);
  });

  it('says what the tribe is, who leads it, and links two social profiles at the end', async () => {
    vi.stubGlobal('fetch', respond(404, {}));
    renderRoute('/tribe');
    const what = await screen.findByRole('region', { name: 'What the tribe is' });
    expect(what).toHaveTextContent('bi-weekly');
    const led = screen.getByRole('region', { name: 'Led by rUv' });
    expect(within(led).getByRole('link', { name: /More about rUv/ })).toHaveAttribute(
      'href',
      '/about',
    );
    const closing = screen.getByRole('region', { name: 'Ready to build with the tribe?' });
    const social = within(within(closing).getByRole('list', { name: 'Follow rUv' })).getAllByRole(
      'link',
    );
    expect(social.map((l) => l.textContent)).toEqual(['LinkedIn', 'GitHub']);
    for (const link of social) expect(link).toHaveAttribute('target', '_blank');
  });

  it('lists the three steps, six things to build and the price', async () => {
    vi.stubGlobal('fetch', respond(404, {}));
    renderRoute('/tribe');
    const how = await screen.findByRole('region', { name: 'How it works' });
    expect(
      within(how)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Find your tribe', 'Meet and build together', 'Ship and iterate']);
    const build = screen.getByRole('region', { name: 'What you will build' });
    expect(
      within(build)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Autonomous agents with multi-step reasoning',
      'Multi-agent orchestration systems',
      'Retrieval-powered knowledge assistants',
      'Custom AI workflows',
      'Agent-based data pipelines',
      'Production-ready agentic applications',
    ]);
    const pricing = screen.getByRole('region', { name: 'Membership' });
    expect(pricing).toHaveTextContent('$250/month');
    expect(pricing).toHaveTextContent('cancel anytime');
    expect(pricing).toHaveTextContent('Live sessions of 2 hours, bi-weekly');
    expect(pricing).toHaveTextContent('Cohorts of about 5');
  });
});
