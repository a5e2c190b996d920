/**
 * The showcase pages against the spec's list of what each one shows: badge texts, card counts,
 * tab order and keyboard behaviour, and the links to the code host, the registries and /projects.
 * Expected values are written out here rather than read from the data files, so a change to the
 * content that drops a spec item fails.
 */
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/render';

function region(name: string | RegExp) {
  return screen.getByRole('region', { name });
}

/** The card titles (h3) of the section titled `name`, in order. */
function cardTitles(name: string | RegExp) {
  return within(region(name))
    .getAllByRole('heading', { level: 3 })
    .map((h) => h.textContent);
}

function texts(elements: HTMLElement[]) {
  return elements.map((el) => el.textContent);
}

/** The hrefs of the first "Package links" list (the hero's). */
function heroPackageLinks() {
  const [hero] = screen.getAllByRole('list', { name: 'Package links' });
  if (!hero) throw new Error('no package links');
  return within(hero)
    .getAllByRole('link')
    .map((a) => a.getAttribute('href'));
}

function expectExternalLinksOpenNewTabs() {
  const external = screen
    .getAllByRole('link')
    .filter((a) => a.getAttribute('href')?.startsWith('https://'));
  expect(external.length).toBeGreaterThan(0);
  for (const a of external) {
    expect(a).toHaveAttribute('target', '_blank');
    expect(a).toHaveAttribute('rel', 'noopener noreferrer');
  }
}

function expectProjectsLink() {
  expect(screen.getByRole('link', { name: 'All projects' })).toHaveAttribute('href', '/projects');
}

describe('/agentic-payments', () => {
  it('has the typed title, the six badges and the three package links', async () => {
    renderRoute('/agentic-payments');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Agentic Payments' }),
    ).toBeInTheDocument();
    const facts = screen.getByRole('list', { name: 'Package facts' });
    expect(texts(within(facts).getAllByRole('listitem'))).toEqual([
      '31K+ downloads',
      'v2.1.8',
      'MIT',
      'Production Ready',
      '< 200 KB bundle',
      'TypeScript + Rust',
    ]);
    const links = heroPackageLinks();
    expect(links).toHaveLength(3);
    expect(links[0]).toMatch(/^https:\/\/github\.com\//);
    expect(links.slice(1)).toEqual([
      'https://www.npmjs.com/package/agentic-payments',
      'https://crates.io/crates/agentic-payments',
    ]);
    const install = region('Install');
    expect(install).toHaveTextContent('npm install agentic-payments');
    expect(install).toHaveTextContent('cargo add agentic-payments');
    expectExternalLinksOpenNewTabs();
  });

  it('lists four protocols, nine features, the assistant server and eight use cases', async () => {
    renderRoute('/agentic-payments');
    await screen.findByRole('heading', { level: 1, name: 'Agentic Payments' });

    expect(cardTitles('Four payment protocols, one library')).toEqual([
      'Model Context Protocol',
      'Agent Payments Protocol',
      'Agentic Commerce Protocol',
      'Trusted Agent Protocol',
    ]);
    const protocols = region('Four payment protocols, one library');
    for (const phrase of ['assistants', 'Ed25519', 'REST', 'card providers', 'QUIC', 'RFC 9421']) {
      expect(protocols).toHaveTextContent(phrase);
    }

    const features = cardTitles('What a mandate controls');
    expect(features).toHaveLength(9);
    const featureText = region('What a mandate controls');
    for (const idea of [
      'Instant revocation',
      'Intent and cart mandates',
      'authorization to capture',
      '67%+',
      '3 of 4 agents above $25K',
    ]) {
      expect(featureText).toHaveTextContent(idea);
    }

    const assistant = region('Use it from your AI assistant');
    expect(assistant).toHaveTextContent('stdio');
    expect(assistant).toHaveTextContent('HTTP/SSE');
    expect(assistant).toHaveTextContent('npx -y agentic-payments mcp');
    expect(assistant).toHaveTextContent('--transport http');
    const counts = within(assistant)
      .getAllByRole('term')
      .map((term) => {
        const [value] = within(term.parentElement as HTMLElement).getAllByRole('definition');
        return `${value?.textContent} ${term.textContent}`;
      });
    expect(counts).toEqual(['10 tools', '3 resources', '2 prompts']);

    expect(within(region('Performance')).getAllByRole('term')).toHaveLength(4);

    expect(cardTitles('Use cases')).toEqual([
      'E-commerce shopping',
      'Algorithmic trading',
      'Ad campaigns',
      'Enterprise procurement',
      'Subscriptions',
      'Store management',
      'AP/AR automation',
      'Mandate authorization & fraud prevention',
    ]);
  });

  it('has a four-step quick start and a closing link to /projects', async () => {
    renderRoute('/agentic-payments');
    await screen.findByRole('heading', { level: 1, name: 'Agentic Payments' });
    const quickStart = region('Quick start');
    expect(quickStart).toHaveTextContent('npm install agentic-payments');
    expect(quickStart).toHaveTextContent('mandate create');
    for (const option of ['--agent', '--holder', '--amount', '--currency', '--period']) {
      expect(quickStart).toHaveTextContent(option);
    }
    expect(quickStart).toHaveTextContent('mandate sign');
    expect(quickStart).toHaveTextContent('--file');
    expect(quickStart).toHaveTextContent('--private-key');
    expect(quickStart).toHaveTextContent('server');
    expectProjectsLink();
  });
});

describe('/ai-defence', () => {
  it('has the package bar with its three badges, the why cards and the key features', async () => {
    renderRoute('/ai-defence');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'AI Defence' }),
    ).toBeInTheDocument();
    const badges = screen.getByRole('list', { name: 'aidefence versions and requirements' });
    expect(texts(within(badges).getAllByRole('listitem'))).toEqual(['v0.1.0', 'MIT', 'Node 18+']);

    expect(cardTitles('Why AI applications need their own defence')).toEqual([
      'Prompt injection',
      'Jailbreaks',
      'PII leaks',
      'Multimodal threats',
      'Behavioural analysis',
      'Formal verification',
    ]);
    expect(region('Quick start')).toHaveTextContent('npm install aidefence');
    const features = cardTitles('Key features');
    expect(features).toHaveLength(6);
    expect(features).toContain('Adaptive response');
    expect(heroPackageLinks()).toEqual([
      'https://github.com/ruvnet/midstream/tree/main/AIMDS',
      'https://www.npmjs.com/package/aidefence',
    ]);
    expectExternalLinksOpenNewTabs();
  });

  it('opens the command reference on Detection and follows the arrow keys', async () => {
    const user = userEvent.setup();
    renderRoute('/ai-defence');
    await screen.findByRole('heading', { level: 1, name: 'AI Defence' });
    const list = screen.getByRole('tablist', { name: 'Command groups' });
    const tabs = within(list).getAllByRole('tab');
    expect(texts(tabs)).toEqual([
      'Detection',
      'Analysis',
      'Verification',
      'Response',
      'Monitoring',
    ]);
    const [detection, analysis, , , monitoring] = tabs;
    expect(detection).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('npx aidefence detect');

    act(() => detection?.focus());
    await user.keyboard('{ArrowRight}');
    expect(analysis).toHaveFocus();
    expect(analysis).toHaveAttribute('aria-selected', 'true');
    expect(detection).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('tabpanel')).toHaveTextContent('npx aidefence analyze');

    await user.keyboard('{End}');
    expect(monitoring).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    expect(detection).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowLeft}');
    expect(monitoring).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    expect(detection).toHaveFocus();
    expect(screen.getByRole('tabpanel', { name: 'Detection' })).toBeInTheDocument();
  });

  it('shows the proxy example, the performance table, the layers and the footer', async () => {
    renderRoute('/ai-defence');
    await screen.findByRole('heading', { level: 1, name: 'AI Defence' });
    const proxy = region('Protect an existing API');
    expect(proxy).toHaveTextContent("from 'aidefence'");
    expect(proxy).toHaveTextContent('threshold: 0.8');

    const table = within(region('Performance')).getByRole('table');
    expect(texts(within(table).getAllByRole('rowheader'))).toEqual([
      'Detection',
      'Analysis',
      'Verification',
      'Response',
      'Deep path',
      'REST API',
      'QUIC',
    ]);
    expect(table).toHaveTextContent('< 520 ms');

    expect(cardTitles('Security layers')).toEqual([
      'Detection',
      'Analysis',
      'Verification',
      'Response',
      'Monitoring',
    ]);
    expect(screen.getByText(/aidefence v0\.1\.0 · MIT licence · Node 18\+/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'AIMDS platform' })).toHaveAttribute('href', '/aimds');
    expectProjectsLink();
  });
});

describe('/aimds', () => {
  it('has the package bar with its five badges and every section', async () => {
    renderRoute('/aimds');
    expect(await screen.findByRole('heading', { level: 1, name: 'AIMDS' })).toBeInTheDocument();
    const badges = screen.getByRole('list', { name: 'aimds versions and requirements' });
    expect(texts(within(badges).getAllByRole('listitem'))).toEqual([
      'v2.1.1',
      'Dual licence MIT/Apache-2.0',
      'Rust 1.85+',
      'TypeScript 5.0+',
      '98.3% test coverage',
    ]);
    expect(cardTitles('Features')).toHaveLength(6);
    expect(within(region('Benchmarks')).getByRole('table')).toHaveTextContent('aimds-detection');
    expect(within(region('Architecture')).getByRole('figure')).toHaveTextContent('API gateway');
    expect(cardTitles('Core libraries')).toEqual([
      'aimds-core',
      'aimds-detection',
      'aimds-analysis',
      'aimds-response',
    ]);
    expect(cardTitles('Use cases')).toHaveLength(6);
    expect(screen.getByRole('heading', { level: 2, name: 'Defend your AI stack' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'AI Defence' })).toHaveAttribute('href', '/ai-defence');
    expect(heroPackageLinks()).toEqual([
      'https://github.com/ruvnet/midstream/tree/main/AIMDS',
      'https://crates.io/crates/aimds-core',
    ]);
    expectProjectsLink();
    expectExternalLinksOpenNewTabs();
  });

  it('opens the quick start on Rust and ArrowRight switches to the TypeScript API', async () => {
    const user = userEvent.setup();
    renderRoute('/aimds');
    await screen.findByRole('heading', { level: 1, name: 'AIMDS' });
    const tabs = within(screen.getByRole('tablist', { name: 'Quick start language' })).getAllByRole(
      'tab',
    );
    expect(texts(tabs)).toEqual(['Rust', 'TypeScript API']);
    const [rust, ts] = tabs;
    expect(rust).toHaveAttribute('aria-selected', 'true');
    expect(ts).toHaveAttribute('aria-selected', 'false');
    expect(screen.getByRole('tabpanel', { name: 'Rust' })).toHaveTextContent(
      'cargo add aimds-core',
    );

    act(() => rust?.focus());
    await user.keyboard('{ArrowRight}');
    expect(ts).toHaveFocus();
    expect(ts).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'TypeScript API' })).toHaveTextContent(
      'POST /api/v1/defend',
    );
    expect(screen.queryByRole('tabpanel', { name: 'Rust' })).toBeNull();

    await user.keyboard('{ArrowLeft}');
    expect(rust).toHaveAttribute('aria-selected', 'true');
  });
});

describe.each([
  {
    path: '/lean-agentic',
    heading: 'Lean Agentic',
    features: 8,
    install: ['npm install lean-agentic', 'cargo add lean-agentic'],
    links: [
      'https://github.com/agenticsorg/lean-agentic',
      'https://www.npmjs.com/package/lean-agentic',
      'https://crates.io/crates/lean-agentic',
    ],
  },
  {
    path: '/midstreamer',
    heading: 'Midstreamer',
    features: 8,
    install: ['npm install midstreamer', 'cargo add midstreamer-temporal-compare'],
    links: [
      'https://github.com/ruvnet/midstream',
      'https://www.npmjs.com/package/midstreamer',
      'https://crates.io/crates/midstreamer-temporal-compare',
    ],
  },
])('$path', ({ path, heading, features, install, links }) => {
  it('has feature cards, install commands, benchmarks and its links', async () => {
    renderRoute(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
    expect(cardTitles('Features')).toHaveLength(features);
    for (const command of install) expect(region('Install')).toHaveTextContent(command);
    const benchmarks = region('Benchmarks');
    expect(within(benchmarks).getAllByRole('term')).toHaveLength(4);
    expect(within(benchmarks).getByRole('table')).toBeInTheDocument();
    expect(heroPackageLinks()).toEqual(links);
    expectProjectsLink();
    expectExternalLinksOpenNewTabs();
  });
});
