/**
 * What the billing end-to-end test runs against: a small stateful stand-in for the Stripe API
 * endpoints the server calls (customers, Checkout Sessions, subscriptions, portal sessions), and
 * a `tribe serve` of its own with online payment on and pointed at it (STRIPE_API_BASE). Webhook
 * events are signed here exactly as Stripe signs them.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from '@playwright/test';
import { startTribe } from './tribe-server';

export const STRIPE_SECRET = 'whsec_e2e_billing_secret';
export const STRIPE_PRICE = 'price_e2e_tribe';
export const CHECKOUT_HOST = 'https://checkout.stripe.test';
export const PORTAL_HOST = 'https://billing.stripe.test';

/** A subscription as the fake serves it. */
export interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  userId: string;
  periodEnd: number;
  cancelAtPeriodEnd?: boolean;
  /** The price's unit amount in cents (USD, monthly); the price has none when absent. */
  amount?: number;
}

export function subscriptionObject(s: FakeSubscription): Record<string, unknown> {
  return {
    id: s.id,
    object: 'subscription',
    customer: s.customer,
    status: s.status,
    cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
    cancel_at: null,
    created: s.periodEnd - 30 * 86_400,
    metadata: { user_id: s.userId },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${s.id}`,
          object: 'subscription_item',
          subscription: s.id,
          current_period_end: s.periodEnd,
          current_period_start: s.periodEnd - 30 * 86_400,
          price:
            s.amount === undefined
              ? { id: STRIPE_PRICE, object: 'price' }
              : {
                  id: STRIPE_PRICE,
                  object: 'price',
                  unit_amount: s.amount,
                  currency: 'usd',
                  recurring: { interval: 'month', interval_count: 1 },
                },
          quantity: 1,
        },
      ],
    },
  };
}

export interface FakeStripe {
  url: string;
  /** Customers created, in order (their ids). */
  customers: string[];
  /** Checkout Sessions created: id to form parameters. */
  sessions: Map<string, URLSearchParams>;
  subscriptions: Map<string, FakeSubscription>;
  close: () => Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      data += chunk;
    });
    req.on('end', () => resolveBody(data));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', Date: new Date().toUTCString() });
  res.end(JSON.stringify(body));
}

/** Starts the fake Stripe API on a free loopback port. */
export async function startFakeStripe(): Promise<FakeStripe> {
  let n = 0;
  const fake: Omit<FakeStripe, 'url' | 'close'> = {
    customers: [],
    sessions: new Map(),
    subscriptions: new Map(),
  };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const form = new URLSearchParams(await readBody(req));
      const path = url.pathname;
      if (req.method === 'POST' && path === '/v1/customers') {
        n += 1;
        const id = `cus_e2e${n}`;
        fake.customers.push(id);
        send(res, 200, { id, object: 'customer', email: form.get('email') });
        return;
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        n += 1;
        const id = `cs_e2e${n}`;
        fake.sessions.set(id, form);
        send(res, 200, {
          id,
          object: 'checkout.session',
          mode: 'subscription',
          status: 'open',
          url: `${CHECKOUT_HOST}/c/${id}`,
          customer: form.get('customer'),
          client_reference_id: form.get('client_reference_id'),
        });
        return;
      }
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      if (req.method === 'POST' && expire) {
        send(res, 200, { id: expire[1], object: 'checkout.session', status: 'expired' });
        return;
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        n += 1;
        send(res, 200, {
          id: `bps_e2e${n}`,
          object: 'billing_portal.session',
          customer: form.get('customer'),
          url: `${PORTAL_HOST}/p/${n}`,
        });
        return;
      }
      const one = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && one) {
        const sub = fake.subscriptions.get(one[1] ?? '');
        if (!sub) {
          send(res, 404, {
            error: { type: 'invalid_request_error', message: 'No such subscription' },
          });
          return;
        }
        send(res, 200, subscriptionObject(sub));
        return;
      }
      if (req.method === 'GET' && path === '/v1/subscriptions') {
        const customer = url.searchParams.get('customer');
        const data = [...fake.subscriptions.values()]
          .filter((s) => !customer || s.customer === customer)
          .map(subscriptionObject);
        send(res, 200, { object: 'list', data, has_more: false, url: '/v1/subscriptions' });
        return;
      }
      send(res, 404, {
        error: { type: 'invalid_request_error', message: `the fake does not serve ${path}` },
      });
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A webhook event body as Stripe sends it. */
export function stripeEvent(id: string, type: string, object: unknown): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-06-24.dahlia',
    created: Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    data: { object },
  });
}

/** The Stripe-Signature header: `t=…,v1=hex(HMAC-SHA256(secret, t + "." + body))`. */
export function stripeSignature(body: string, secret = STRIPE_SECRET, at = Date.now()): string {
  const t = Math.floor(at / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

export interface BillingServer {
  baseURL: string;
  stripe: FakeStripe;
  stop: () => Promise<void>;
}

/**
 * Starts `tribe serve` with online payment on against a fresh fake Stripe, on a free port with a
 * fresh data directory; `adminEmail` is an admin once its address is confirmed.
 */
export async function startBillingServer(adminEmail: string): Promise<BillingServer> {
  const stripe = await startFakeStripe();
  try {
    const server = await startTribe('tribe-billing-server.log', {
      DATABASE_URL: '',
      TRIBE_ADMIN_EMAILS: adminEmail,
      STRIPE_SECRET_KEY: 'sk_test_e2e_billing',
      STRIPE_WEBHOOK_SECRET: STRIPE_SECRET,
      STRIPE_PRICE_ID: STRIPE_PRICE,
      STRIPE_API_BASE: stripe.url,
    });
    return {
      baseURL: server.baseURL,
      stripe,
      stop: async () => {
        await server.stop();
        await stripe.close();
      },
    };
  } catch (error) {
    await stripe.close();
    throw error;
  }
}

/**
 * Runs a billing server (startBillingServer) for the specs of the enclosing file or describe
 * block: started before the first, stopped after the last. Returns a getter, since the server
 * exists only once the hook has run.
 */
export function withBillingServer(adminEmail: string): () => BillingServer {
  let server: BillingServer | undefined;
  test.beforeAll(async () => {
    test.setTimeout(60_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
    server = await startBillingServer(adminEmail);
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('the billing server has not started');
    return server;
  };
}
