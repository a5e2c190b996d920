import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';

/** The site's address as the server runs it (the base URL the global setup configured). */
function site(baseURL: string | undefined): string {
  if (!baseURL) throw new Error('no base URL: run through the global setup or set E2E_BASE_URL');
  return baseURL;
}

/** Sends a raw request with any Host and headers (fetch will not set Host). */
function rawPost(
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const toolsList = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

test.describe('MCP server', () => {
  test('the official TypeScript client lists the tools, searches and reads a resource', async ({
    baseURL,
  }) => {
    const base = site(baseURL);
    const client = new Client({ name: 'tribe-e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    await client.connect(transport);
    try {
      // This client speaks the initialize handshake; the server negotiates its version.
      expect(transport.protocolVersion).toBe('2025-11-25');
      expect(client.getServerVersion()?.name).toBe('ruv-site');

      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'find_available_slots',
        'list_services',
        'read_json_path',
        'read_resource',
        'search',
      ]);
      for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true);

      const found = await client.callTool({
        name: 'search',
        arguments: { query: 'tribe membership price', limit: 3 },
      });
      expect(found.isError ?? false).toBe(false);
      const results = (found.structuredContent as { results: Array<{ title: string }> }).results;
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThanOrEqual(3);

      const services = await client.readResource({ uri: '/content/services.json' });
      const first = services.contents[0];
      expect(first?.mimeType).toBe('application/json');
      const parsed = JSON.parse(first && 'text' in first ? first.text : '{}') as {
        sessions: Array<{ price: number }>;
      };
      expect(parsed.sessions.map((s) => s.price)).toContain(299);

      const bad = await client.callTool({ name: 'search', arguments: {} });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('Argument query is required.');

      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain(`${base}/content/services.json`);
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual([
        'ask_knowledge_base',
        'plan_coaching_session',
      ]);
    } finally {
      await client.close();
    }
  });

  test('a browser page on another origin connects with CORS and no credentials', async ({
    page,
    baseURL,
  }) => {
    const base = site(baseURL);
    // A page of a browser-based MCP client, served from another origin (another port).
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>MCP client</title>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as AddressInfo;
    try {
      await page.goto(`http://127.0.0.1:${port}/`);
      const answer = await page.evaluate(async (endpoint) => {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'Mcp-Protocol-Version': '2025-06-18',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
        });
        const body = (await res.json()) as { result?: { tools: Array<{ name: string }> } };
        return { status: res.status, tools: body.result?.tools.map((t) => t.name) ?? [] };
      }, `${base}/mcp`);
      expect(answer.status).toBe(200);
      expect(answer.tools).toContain('search');
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  test('refuses DNS rebinding and oversized requests, and limits each client', async ({
    baseURL,
    request,
  }) => {
    const endpoint = new URL(`${site(baseURL)}/mcp`);

    // A page whose own name was made to resolve to this server: Origin and Host are its name.
    const rebound = await rawPost(
      endpoint,
      { Host: `evil.example:${endpoint.port}`, Origin: `http://evil.example:${endpoint.port}` },
      toolsList,
    );
    expect(rebound.status).toBe(403);
    expect(rebound.headers['access-control-allow-origin']).toBeUndefined();
    // The site's own origin is served.
    const own = await rawPost(endpoint, { Origin: endpoint.origin }, toolsList);
    expect(own.status).toBe(200);

    const big = await request.post('/mcp', {
      headers: { 'Content-Type': 'application/json' },
      data: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'a'.repeat(70_000) } },
      }),
    });
    expect(big.status()).toBe(413);
    expect((await big.json()).error.code).toBe('too_large');

    // Browsers still get the page at the same address; MCP clients asking for a stream get 405.
    const stream = await request.get('/mcp', { headers: { Accept: 'text/event-stream' } });
    expect(stream.status()).toBe(405);
    expect(stream.headers().allow).toBe('POST');

    // Last: the per-address limit (other tests' requests come from the same address). It refills
    // while this runs, so send until refused, up to three bursts.
    let limited = 0;
    for (let i = 0; i < 180 && limited === 0; i++) {
      const res = await request.post('/mcp', {
        headers: { 'Content-Type': 'application/json' },
        data: toolsList,
      });
      if (res.status() === 429) {
        limited = res.status();
        expect(Number(res.headers()['retry-after'])).toBeGreaterThan(0);
        expect((await res.json()).error.code).toBe('rate_limited');
      }
    }
    expect(limited).toBe(429);
  });
});

test.describe('Connect your assistant', () => {
  test('the server URL and configuration are right before and after JavaScript', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const url = `${site(baseURL)}/mcp`;
    // Before JavaScript: the prerendered page, filled in by the server.
    const html = await (await request.get('/mcp', { headers: { Accept: 'text/html' } })).text();
    expect(html).toContain(`claude mcp add --transport http rUv ${url}`);
    expect(html).toContain(`&quot;url&quot;: &quot;${url}&quot;`);
    expect(html).not.toContain('%TRIBE_BASE_URL%');

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto('/mcp');
    const connect = page.getByRole('region', { name: 'Connect your assistant' });
    await expect(connect).toContainText(`claude mcp add --transport http rUv ${url}`);
    await expect(connect).toContainText('"type": "http"');
    await connect.getByRole('button', { name: 'Copy Server URL' }).click();
    await expect(connect.getByRole('button', { name: 'Copied Server URL' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await expect(connect.getByRole('link', { name: 'server card' })).toHaveAttribute(
      'href',
      '/.well-known/mcp/server-card.json',
    );
    expect(errors).toEqual([]);

    const card = await (await request.get('/.well-known/mcp/server-card.json')).json();
    expect(card.remotes[0]).toMatchObject({ type: 'streamable-http', url });
  });
});
