import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/render';
import {
  claudeCodeCommand,
  mcpJsonConfig,
  mcpServerUrl,
  SERVER_CARD_PATH,
} from './ConnectAssistant';
import { STARTER_KIT_URL } from './McpPage';

describe('MCP page', () => {
  it('has a hero with badges and the Download ZIP Package button', async () => {
    renderRoute('/mcp');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Client-side MCP tools' }),
    ).toBeInTheDocument();
    const badges = within(screen.getByRole('list', { name: 'Facts' })).getAllByRole('listitem');
    expect(badges.map((b) => b.textContent)).toContain('MIT licence');
    const download = screen.getByRole('link', { name: 'Download ZIP Package' });
    expect(download).toHaveAttribute('href', STARTER_KIT_URL);
    expect(download).toHaveAttribute('download', 'client-side-mcp-tools.zip');
  });

  it('lists the advantages and the six groups of applications', async () => {
    renderRoute('/mcp');
    const advantages = await screen.findByRole('region', {
      name: 'Advantages over server-side tools',
    });
    expect(within(advantages).getAllByRole('heading', { level: 3 }).length).toBeGreaterThan(2);
    const apps = screen.getByRole('region', { name: 'Real-world applications' });
    expect(
      within(apps)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual([
      'E-commerce',
      'Professional tools',
      'Search',
      'Education',
      'Healthcare',
      'Business',
    ]);
  });

  it('compares client-side and server-side tools in a table', async () => {
    renderRoute('/mcp');
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Aspect', 'Client-side tools', 'Server-side MCP']);
    expect(within(table).getAllByRole('rowheader').length).toBeGreaterThanOrEqual(5);
  });

  it('shows the file structure, a usage example, when to choose and the MIT licence', async () => {
    renderRoute('/mcp');
    const impl = await screen.findByRole('region', { name: 'What is in the package' });
    expect(impl).toHaveTextContent('client-side-mcp-tools/');
    expect(impl).toHaveTextContent('mcpLocal.ts');
    expect(impl).toHaveTextContent("callTool('search'");
    const when = screen.getByRole('region', { name: 'When to choose which' });
    expect(within(when).getAllByRole('heading', { level: 3 })).toHaveLength(2);
    const licence = screen.getByRole('region', { name: 'Licence and contributing' });
    expect(licence).toHaveTextContent('MIT licence');
  });

  it('shows how to connect an assistant to the site’s MCP server', async () => {
    renderRoute('/mcp');
    const connect = await screen.findByRole('region', { name: 'Connect your assistant' });
    const url = `${window.location.origin}/mcp`;
    expect(mcpServerUrl()).toBe(url);
    expect(within(connect).getByRole('button', { name: 'Copy Server URL' })).toBeInTheDocument();
    expect(connect).toHaveTextContent(url);
    expect(connect).toHaveTextContent(`claude mcp add --transport http rUv ${url}`);
    const config = JSON.parse(mcpJsonConfig(url));
    expect(config).toEqual({ servers: { rUv: { type: 'http', url } } });
    expect(connect).toHaveTextContent('"type": "http"');
    expect(within(connect).getByRole('link', { name: 'server card' })).toHaveAttribute(
      'href',
      SERVER_CARD_PATH,
    );
  });

  it('builds the configuration from the base URL it is given', () => {
    const url = mcpServerUrl('https://ruv.example');
    expect(url).toBe('https://ruv.example/mcp');
    expect(claudeCodeCommand(url)).toBe(
      'claude mcp add --transport http rUv https://ruv.example/mcp',
    );
  });
});
