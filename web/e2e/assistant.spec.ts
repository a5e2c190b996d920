import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import {
  discoverAuthorizationServerMetadata,
  type OAuthClientProvider,
  refreshAuthorization,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { expect, test } from '@playwright/test';
import { confirmedPage, dayOffset, PASSWORD } from './accounts';
import { startTribe, type TribeServer } from './tribe-server';

/**
 * A member's own assistant over OAuth (issue 34), driven by the official TypeScript SDK's client and
 * its OAuth provider interface, as Claude Code or the MCP Inspector use them: the member tool
 * answers 401, the client discovers the server, registers itself and sends the member to the
 * consent page; the member allows it in Chromium; the client then lists the member's sessions,
 * RSVPs, refreshes its token, and stops working once the member revokes it in Profile.
 */

const OWNER = 'assistant-owner@example.test';
const MEMBER = 'assistant-member@example.test';
let server: TribeServer;
let callback: Server;
let callbackURL: string;
let codes: Array<{ code: string | null; state: string | null; error: string | null }> = [];

test.beforeAll(async () => {
  server = await startTribe('tribe-assistant-server.log', {
    DATABASE_URL: '',
    TRIBE_ADMIN_EMAILS: OWNER,
  });
  // The assistant's loopback redirect (RFC 8252), as a desktop client listens on.
  callback = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end(); // the browser's favicon
      return;
    }
    codes.push({
      code: url.searchParams.get('code'),
      state: url.searchParams.get('state'),
      error: url.searchParams.get('error'),
    });
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('You can close this window.');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackURL = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (callback ? callback.close(() => resolve()) : resolve()));
});

/** An in-memory OAuth client, as the SDK's clients keep one per server. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = '';
  authorizationURL?: URL;
  constructor(private readonly redirect: string) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E Assistant',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'e2e-state-1';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationURL = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function connect(mcp: URL, provider: MemoryProvider) {
  const client = new Client({ name: 'tribe-e2e-assistant', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcp, { authProvider: provider });
  await client.connect(transport);
  return { client, transport };
}

/** The text of a tool's answer. */
function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? '').join('\n');
}

test('a member connects an assistant through the consent page, it RSVPs for them, refreshes, and stops when revoked', async ({
  browser,
}) => {
  test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // a journey across the SDK and two browsers
  codes = [];
  const base = server.baseURL;
  const mcp = new URL(`${base}/mcp`);

  // The owner plans a session and gives the member the tribe.
  const owner = await confirmedPage(browser, OWNER, { fullName: 'Owner', baseURL: base });
  const member = await confirmedPage(browser, MEMBER, { fullName: 'Ada Assistant', baseURL: base });
  const planned = await owner.context.request.post('/api/admin/sessions', {
    data: {
      title: 'Agent memory, live',
      description: 'Live build',
      tags: ['agents'],
      session_date: dayOffset(3),
      session_time: '17:00',
      duration: '1 hour',
      timezone: 'UTC',
      max_attendees: 50,
      meeting_link: 'https://meet.example/abc',
    },
  });
  expect(planned.status()).toBe(201);
  const members = await (await owner.context.request.get('/api/admin/members')).json();
  const ada = (members.members as Array<{ user_id: string; email: string }>).find(
    (m) => m.email === MEMBER,
  );
  expect(ada).toBeDefined();
  const comp = await owner.context.request.put(`/api/admin/members/${ada?.user_id}/complimentary`, {
    data: { until: '2099-12-31' },
  });
  expect(comp.status()).toBe(200);

  // Without a token the member tool answers 401; the SDK discovers, registers and asks to redirect.
  const provider = new MemoryProvider(callbackURL);
  const anonymous = await connect(mcp, provider);
  await expect(
    anonymous.client.callTool({ name: 'my_next_sessions', arguments: {} }),
  ).rejects.toThrow(UnauthorizedError);
  await anonymous.client.close();
  expect(provider.info?.client_id).toBeTruthy();
  const authorize = provider.authorizationURL;
  expect(authorize?.pathname).toBe('/oauth/authorize');
  expect(authorize?.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize?.searchParams.get('resource')).toBe(`${base}/mcp`);

  // Signed out in this browser, the member signs in first and comes back to the consent page.
  const { page } = member;
  await member.context.clearCookies();
  await page.goto(authorize?.toString() ?? '');
  await expect(page).toHaveURL(/\/auth\?return=%2Foauth%2Fconsent/);
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(MEMBER);
  await signIn.getByLabel('Password').fill(PASSWORD);
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  // The member sees who asks, where it goes back to and what for, and allows it.
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(
    page.getByRole('heading', { name: 'Allow E2E Assistant to use the tribe as you?' }),
  ).toBeVisible();
  await expect(page.getByText(callbackURL)).toBeVisible();
  await expect(page.getByText(`Signed in as ${MEMBER}.`)).toBeVisible();
  await expect(page.getByText(/RSVP to sessions, hold a booking for you to pay/)).toBeVisible();
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    mkdirSync('test-results/assistant', { recursive: true });
    await page.screenshot({ path: `test-results/assistant/consent-${width}.png`, fullPage: true });
  }
  await page.getByRole('button', { name: 'Allow' }).click();
  await expect(page.getByText('You can close this window.')).toBeVisible();
  expect(codes).toHaveLength(1);
  expect(codes[0]?.state).toBe('e2e-state-1');
  expect(codes[0]?.error).toBeNull();
  await anonymous.transport.finishAuth(codes[0]?.code ?? '');
  expect(provider.saved?.token_type.toLowerCase()).toBe('bearer');
  expect(provider.saved?.refresh_token).toBeTruthy();

  // With the token: the member's next sessions, and an RSVP in their name.
  const connected = await connect(mcp, provider);
  const next = await connected.client.callTool({ name: 'my_next_sessions', arguments: {} });
  const upcoming = (
    next.structuredContent as {
      sessions: Array<{ id: string; title: string; my_rsvp: boolean | null; can_rsvp: boolean }>;
    }
  ).sessions;
  const session = upcoming.find((s) => s.title === 'Agent memory, live');
  expect(session).toMatchObject({ my_rsvp: null, can_rsvp: true });
  expect(text(next)).toContain('Agent memory, live');
  const rsvp = await connected.client.callTool({
    name: 'rsvp_session',
    arguments: { session_id: session?.id, going: true },
  });
  expect(rsvp.isError ?? false).toBe(false);
  const sessions = await (await member.context.request.get('/api/sessions')).json();
  const mine = (sessions.sessions as Array<{ id: string; my_rsvp: boolean | null }>).find(
    (s) => s.id === session?.id,
  );
  expect(mine?.my_rsvp).toBe(true);
  await connected.client.close();

  // The refresh token gives a new pair; the old access token is not the new one.
  const before = provider.saved;
  const metadata = await discoverAuthorizationServerMetadata(base);
  expect(metadata?.token_endpoint).toBe(`${base}/oauth/token`);
  const refreshed = await refreshAuthorization(base, {
    metadata,
    clientInformation: provider.info as OAuthClientInformationMixed,
    refreshToken: before?.refresh_token ?? '',
    resource: `${base}/mcp`,
  });
  expect(refreshed.access_token).not.toBe(before?.access_token);
  expect(refreshed.refresh_token).not.toBe(before?.refresh_token);
  provider.saveTokens(refreshed);
  const again = await connect(mcp, provider);
  expect(text(await again.client.callTool({ name: 'my_progress', arguments: {} }))).toMatch(
    /level/i,
  );
  await again.client.close();

  // Profile lists the assistant; Revoke ends it at once.
  await page.goto('/members');
  await page.getByRole('tab', { name: 'Profile' }).click();
  const list = page.getByRole('list', { name: 'Connected assistants' });
  await expect(list.getByText('E2E Assistant')).toBeVisible();
  await expect(list).toContainText('last used');
  // The consent page and Profile's list are read at a phone's width and a desktop's, and axe finds
  // nothing serious in the list.
  mkdirSync('test-results/assistant', { recursive: true });
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/assistant/profile-${width}.png` });
    const results = await new AxeBuilder({ page })
      .include('section[aria-labelledby="assistants-heading"]')
      .analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `axe at ${width}px`).toEqual([]);
  }
  await page.getByRole('button', { name: 'Revoke E2E Assistant' }).click();
  await page
    .getByRole('alertdialog', { name: 'Disconnect E2E Assistant?' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByText('No assistants connected')).toBeVisible();

  // The token it holds now gets 401 with where to sign in again.
  const refused = await fetch(mcp, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${refreshed.access_token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'my_next_sessions', arguments: {} },
    }),
  });
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toContain(
    `resource_metadata="${base}/.well-known/oauth-protected-resource`,
  );
  await owner.context.close();
  await member.context.close();
});
