import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/render';

function cardLinks(region: HTMLElement) {
  return within(region)
    .getAllByRole('heading', { level: 3 })
    .map((h) => within(h).getByRole('link'));
}

describe('Projects page', () => {
  it('starts with the external profile cards', async () => {
    renderRoute('/projects');
    const profiles = await screen.findByRole('list', { name: 'Profiles' });
    const links = within(profiles).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['GitHub', 'npm', 'YouTube', 'LinkedIn']);
    for (const link of links) {
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
      expect(link).toHaveAttribute('target', '_blank');
    }
  });

  it('features two projects', async () => {
    renderRoute('/projects');
    const featured = await screen.findByRole('region', { name: 'Featured projects' });
    expect(cardLinks(featured).map((l) => l.textContent)).toEqual(['AgentDB', 'Claude-Flow']);
  });

  it('links the four showcase pages on this site', async () => {
    renderRoute('/projects');
    const showcases = await screen.findByRole('region', { name: 'Package showcases' });
    const links = cardLinks(showcases);
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/agentic-payments',
      '/lean-agentic',
      '/midstreamer',
      '/ai-defence',
    ]);
    for (const link of links) expect(link).not.toHaveAttribute('target');
  });

  it('lists the other projects and frameworks as outward cards, Neural Trader first', async () => {
    renderRoute('/projects');
    const open = await screen.findByRole('region', { name: 'Frameworks and tools' });
    const links = cardLinks(open);
    expect(links.length).toBeGreaterThanOrEqual(10);
    expect(links[0]).toHaveTextContent('Neural Trader');
    for (const link of links) {
      expect(link.getAttribute('href')).toMatch(/^https:\/\//);
      expect(link).toHaveAttribute('target', '_blank');
    }
  });

  it('ends with the MCP section linking to /mcp', async () => {
    renderRoute('/projects');
    const mcp = await screen.findByRole('region', { name: 'Client-side MCP tools' });
    expect(within(mcp).getByRole('link', { name: /Tools and starter kit/ })).toHaveAttribute(
      'href',
      '/mcp',
    );
  });
});
