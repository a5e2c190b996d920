import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/render';

/** The list items of the section titled `name`. */
function itemsOf(name: string | RegExp) {
  const section = screen.getByRole('region', { name });
  return within(section).getAllByRole('listitem');
}

describe('showcase pages', () => {
  it('/agentic-payments lists every section the page promises', async () => {
    renderRoute('/agentic-payments');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Agentic Payments' }),
    ).toBeInTheDocument();
    const facts = screen.getByRole('list', { name: 'Package facts' });
    expect(
      within(facts)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      '31K+ downloads',
      'v2.1.8',
      'MIT',
      'Production Ready',
      '< 200 KB bundle',
      'TypeScript + Rust',
    ]);
    expect(itemsOf('Four payment protocols, one library')).toHaveLength(4);
    expect(itemsOf('What a mandate controls')).toHaveLength(9);
    expect(itemsOf('Use cases')).toHaveLength(8);
    const quickStart = screen.getByRole('region', { name: 'Quick start' });
    for (const option of ['--agent', '--holder', '--amount', '--currency', '--period']) {
      expect(quickStart).toHaveTextContent(option);
    }
    expect(quickStart).toHaveTextContent('mandate sign');
    expect(quickStart).toHaveTextContent('--private-key');
  });

  it('/ai-defence opens its command reference on Detection', async () => {
    renderRoute('/ai-defence');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'AI Defence' }),
    ).toBeInTheDocument();
    const tabs = within(screen.getByRole('tablist', { name: 'Command groups' })).getAllByRole(
      'tab',
    );
    expect(tabs.map((t) => t.textContent)).toEqual([
      'Detection',
      'Analysis',
      'Verification',
      'Response',
      'Monitoring',
    ]);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    expect(itemsOf('Why AI applications need their own defence')).toHaveLength(6);
    expect(
      screen.getByRole('list', { name: 'aidefence versions and requirements' }),
    ).toHaveTextContent('v0.1.0MITNode 18+');
  });

  it('/aimds opens its quick start on Rust', async () => {
    renderRoute('/aimds');
    expect(await screen.findByRole('heading', { level: 1, name: 'AIMDS' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Rust' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'TypeScript API' })).toHaveAttribute(
      'aria-selected',
      'false',
    );
    expect(screen.getByRole('tabpanel', { name: 'Rust' })).toHaveTextContent(
      'cargo add aimds-core',
    );
  });

  it.each([
    ['/lean-agentic', 'Lean Agentic', 'https://www.npmjs.com/package/lean-agentic'],
    ['/midstreamer', 'Midstreamer', 'https://www.npmjs.com/package/midstreamer'],
  ])('%s links to the code host, the registry and /projects', async (path, heading, npm) => {
    renderRoute(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    const links = screen.getAllByRole('link');
    const hrefs = links.map((a) => a.getAttribute('href'));
    expect(hrefs).toContain(npm);
    expect(hrefs.some((h) => h?.startsWith('https://github.com/ruvnet/'))).toBe(true);
    expect(screen.getByRole('link', { name: 'All projects' })).toHaveAttribute('href', '/projects');
    for (const a of links.filter((l) => l.getAttribute('href')?.startsWith('https://'))) {
      expect(a).toHaveAttribute('target', '_blank');
      expect(a).toHaveAttribute('rel', 'noopener noreferrer');
    }
  });
});
