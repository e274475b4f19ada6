/**
 * The checks `npm run smoke` makes against a running stage, in order, each one HTTP conversation a
 * merchant's integration could have: health, authentication, a plan, a payment paid through its
 * hosted checkout, and a signed webhook about that payment. Whatever passes or fails, everything
 * the run created is removed (or, for the payment's charge, refunded) before it ends.
 */
import { randomBytes } from 'node:crypto';
import { type Answer, type Client, createClient, describe, reasonOf } from './client.ts';
import { type Delivery, type Receiver, startReceiver } from './receiver.ts';

export interface SmokeOptions {
  /** The stage's base URL (the `PublicBaseUrl` output, or the local gateway's origin). */
  url: string;
  /** A test-mode secret API key: the run creates, pays and deletes test records only. */
  key: string;
  /** A public URL that forwards to `listen`; without it only a stack on loopback can be reached. */
  receiver?: string;
  /** Where the webhook receiver listens (port 0: any free port). */
  listen: { host: string; port: number };
  /** How long to wait for the webhook delivery. */
  webhookTimeoutMs: number;
}

export type Outcome = 'ok' | 'FAIL' | 'skip';

export interface StepResult {
  step: string;
  outcome: Outcome;
  ms: number;
  detail: string;
}

/** What the run created, by id: what its clean-up removes. */
export interface Created {
  plan_id?: string;
  webhook_endpoint_id?: string;
  payment_id?: string;
  charge_id?: string;
  customer_ids?: string[];
}

/** The simulated acquirer's card that is approved without a 3-D Secure challenge (test mode). */
export const approvedTestCard = '4242424242424242';

/** Where the checkout would send the payer: never followed, the run reads the redirect only. */
const returnUrl = 'https://example.com/cobro-smoke/return';

/** The smallest payment cobro takes (the equivalent of USD 1.00), in the plan's and payment's currency. */
const amount = '1.00';
const currency = 'USD';

const isLoopback = (url: string) => {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
};

/** A key of cobro's format that no account holds: the authorizer must look it up and refuse it. */
const unknownKey = () => `sk_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'x')}`;

/** A check that cannot be made on this stage, said why: `skip`, not a failure. */
class NotApplicable extends Error {}

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) throw new Error(`${what} answered ${describe(answer)} (expected ${status})`);
}

/** What one run knows as it goes: its client, what it made, and what later checks need. */
interface Run {
  options: SmokeOptions;
  client: Client;
  key: string;
  /** Names the run's records (the plan's and payment's names, the payer's e-mail). */
  tag: string;
  payer: string;
  created: Created;
  signal: AbortSignal;
  receiver?: Receiver;
  page?: { url: string; html: string };
  /** The checkout form was posted: the payer may have become a customer. */
  payAttempted: boolean;
}

interface Check {
  name: string;
  /** Checks that must have passed for this one to run. */
  needs: string[];
  run(run: Run): Promise<string>;
}

async function health({ client }: Run): Promise<string> {
  const answer = await client.api('GET', '/health');
  if (answer.status !== 200 || answer.json?.status !== 'ok') {
    throw new Error(`GET /health answered ${describe(answer)}`);
  }
  return 'GET /health: 200 {"status":"ok"}';
}

async function keyAccepted({ client, key }: Run): Promise<string> {
  const answer = await client.api('GET', '/v1/auth/api-keys/', { key });
  if (answer.status !== 200 || typeof answer.json?.test?.key !== 'string') {
    throw new Error(`the key was refused: GET /v1/auth/api-keys/ answered ${describe(answer)}`);
  }
  return 'the test key is accepted (GET /v1/auth/api-keys/: 200)';
}

async function unknownKeyRefused({ client }: Run): Promise<string> {
  const answer = await client.api('GET', '/v1/auth/api-keys/', { key: unknownKey() });
  expectStatus(answer, 401, 'GET /v1/auth/api-keys/ with an unknown key');
  return `an unknown key is refused: 401 ${answer.json?.detail ?? ''}`.trim();
}

async function plan({ client, key, tag, created }: Run): Promise<string> {
  const name = `cobro smoke ${tag}`;
  const answer = await client.api('POST', '/v1/plans/', {
    key,
    body: {
      name,
      description: 'Made by npm run smoke, deleted when it ends',
      currency,
      amount,
      interval: 'month',
      interval_count: 1,
    },
  });
  expectStatus(answer, 201, 'POST /v1/plans/');
  const id = answer.json?.data?.id;
  if (typeof id !== 'string') throw new Error(`POST /v1/plans/ answered no plan id: ${describe(answer)}`);
  created.plan_id = id;
  const read = await client.api('GET', `/v1/plans/${encodeURIComponent(id)}/`, { key });
  expectStatus(read, 200, `GET /v1/plans/${id}/`);
  const view = read.json;
  if (view?.key !== id || view?.information?.name !== name || view?.information?.amount !== amount) {
    throw new Error(`plan ${id} read back differs from what was created: ${describe(read)}`);
  }
  if (view.test !== true) throw new Error(`plan ${id} is not a test-mode plan ("test": ${view.test})`);
  return `${id} created and read back, in test mode`;
}

async function webhookEndpoint(run: Run): Promise<string> {
  const { options, client, key, created } = run;
  if (!options.receiver && !isLoopback(options.url)) {
    throw new Error(
      'a deployed stage delivers webhooks to public addresses only: give --receiver <public URL> that forwards to this machine (--listen)',
    );
  }
  const { host, port } = options.listen;
  let receiver: Receiver;
  try {
    receiver = await startReceiver(host, port);
  } catch (error) {
    throw new Error(`cannot listen on ${host}:${port}: ${reasonOf(error)}`);
  }
  run.receiver = receiver;
  const url = options.receiver ?? `http://127.0.0.1:${receiver.port}/cobro-smoke`;
  const answer = await client.api('POST', '/v1/webhook-endpoints/', {
    key,
    body: { url, events: ['payment.succeeded'], description: 'npm run smoke (deleted when it ends)' },
  });
  expectStatus(answer, 201, 'POST /v1/webhook-endpoints/');
  const { id, secret } = answer.json?.data ?? {};
  if (typeof id !== 'string' || typeof secret !== 'string') {
    throw new Error('POST /v1/webhook-endpoints/ answered no endpoint id or secret');
  }
  created.webhook_endpoint_id = id;
  receiver.useSecret(secret);
  return `${id} registered for payment.succeeded at ${url} (listening on ${host}:${receiver.port})`;
}

async function payment(run: Run): Promise<string> {
  const { client, key, tag, created } = run;
  const answer = await client.api('POST', '/v1/payments/', {
    key,
    body: {
      amount,
      currency,
      description: `cobro smoke ${tag}`,
      items: ['Smoke check'],
      return_url: returnUrl,
    },
  });
  expectStatus(answer, 202, 'POST /v1/payments/');
  const id = answer.json?.data?.id_payment;
  const redirect = answer.json?.data?.redirect;
  if (typeof id !== 'string' || typeof redirect !== 'string') {
    throw new Error(`POST /v1/payments/ answered no id_payment or redirect: ${describe(answer)}`);
  }
  created.payment_id = id;
  run.page = { url: redirect, html: '' };
  return `${id} created (202), its checkout page in data.redirect`;
}

/** The checkout page's headers that keep it out of frames, caches and content sniffing. */
const pageHeaders: [string, (value: string) => boolean][] = [
  ['content-security-policy', (value) => value.includes("frame-ancestors 'none'")],
  ['x-frame-options', (value) => value.toUpperCase() === 'DENY'],
  ['x-content-type-options', (value) => value === 'nosniff'],
  ['cache-control', (value) => value.includes('no-store')],
];

async function checkoutPage({ client, page }: Run): Promise<string> {
  if (!page) throw new Error('no checkout page');
  // The page's address holds its single-use token: it is never printed.
  const answer = await client.page('GET', page.url, 'GET the checkout page', {
    headers: { Accept: 'text/html' },
  });
  expectStatus(answer, 200, 'GET the checkout page');
  const type = answer.headers.get('content-type') ?? '';
  if (!type.startsWith('text/html')) throw new Error(`the checkout page is ${type || 'untyped'}, not HTML`);
  const wrong = pageHeaders
    .filter(([name, ok]) => !ok(answer.headers.get(name) ?? ''))
    .map(([name]) => `${name}: ${answer.headers.get(name) ?? '(absent)'}`);
  if (wrong.length > 0) throw new Error(`security headers missing or weak: ${wrong.join('; ')}`);
  page.html = answer.text;
  return "200 HTML; CSP with frame-ancestors 'none', X-Frame-Options DENY, nosniff, no-store";
}

async function checkoutPayment(run: Run): Promise<string> {
  const { client, key, page, created } = run;
  if (!page) throw new Error('no checkout page');
  // The page is a plain HTML form (no JavaScript needed): post it back as a browser would.
  const csrf = /name="csrf_token" value="([^"]*)"/.exec(page.html)?.[1];
  // A test mode connected to Stripe takes cards on Stripe's own page, which a script cannot pay
  // (and must not: it is Stripe's). The page said so; the payment is left unpaid and expires.
  if (csrf && !page.html.includes('name="card_number"') && /Stripe/.test(page.html)) {
    throw new NotApplicable(
      "test mode takes cards on Stripe's page (it is connected to Stripe): pay one payment there by hand with Stripe's test card 4242 4242 4242 4242",
    );
  }
  if (!csrf || !page.html.includes('name="card_number"')) {
    throw new Error('the checkout page has no card form to post (csrf_token, card_number)');
  }
  const form: Record<string, string> = {
    csrf_token: csrf,
    cardholder_name: 'Smoke Check',
    card_number: approvedTestCard,
    exp_month: '12',
    exp_year: String(new Date().getUTCFullYear() + 3),
    cvc: '123',
  };
  if (page.html.includes('name="email"')) form.email = run.payer;
  run.payAttempted = true;
  const answer = await client.page('POST', page.url, 'POST the checkout form', {
    form,
    headers: { Accept: 'text/html' },
  });
  const location = answer.headers.get('location') ?? '';
  if (answer.status !== 303 || !location.includes(`id_payment=${created.payment_id}`)) {
    const title = /<title>([^<]*)<\/title>/.exec(answer.text)?.[1] ?? '';
    throw new Error(`posting the test card answered ${answer.status} ${title}`.trim());
  }
  const view = await client.api('GET', `/v1/payments/${created.payment_id}`, { key });
  expectStatus(view, 200, `GET /v1/payments/${created.payment_id}`);
  const { status, charge_id: chargeId, test } = view.json ?? {};
  if (status !== 'completed' || typeof chargeId !== 'string' || test !== true) {
    throw new Error(`the payment is not a completed test payment after the checkout: ${describe(view)}`);
  }
  created.charge_id = chargeId;
  return `paid with the test card 4242 4242 4242 4242: 303 to return_url, test payment completed, charge ${chargeId}`;
}

async function webhookDelivery({ receiver, created, options, signal, client, key }: Run): Promise<string> {
  if (!receiver) throw new Error('no receiver');
  const started = performance.now();
  let delivery: Delivery;
  try {
    delivery = await receiver.waitFor(
      (candidate) =>
        candidate.type === 'payment.succeeded' && candidate.data?.object?.id === created.payment_id,
      options.webhookTimeoutMs,
      signal,
    );
  } catch (error) {
    throw new Error(`${(error as Error).message}${await attemptsOf(client, key, created)}`);
  }
  const ms = Math.round(performance.now() - started);
  return `payment.succeeded ${delivery.id} received ${ms} ms after the payment, signature verified`;
}

/** The checks, in order. */
const checks: Check[] = [
  { name: 'health', needs: [], run: health },
  { name: 'auth', needs: [], run: keyAccepted },
  { name: 'auth: wrong key', needs: [], run: unknownKeyRefused },
  { name: 'plan', needs: ['auth'], run: plan },
  { name: 'webhook endpoint', needs: ['auth'], run: webhookEndpoint },
  { name: 'payment', needs: ['auth'], run: payment },
  { name: 'checkout page', needs: ['payment'], run: checkoutPage },
  { name: 'checkout payment', needs: ['checkout page'], run: checkoutPayment },
  { name: 'webhook delivery', needs: ['webhook endpoint', 'checkout payment'], run: webhookDelivery },
];

/** DELETE a record, then GET it to see it gone (404). */
async function removeThenGone(client: Client, key: string, path: string, id: string): Promise<string> {
  const removed = await client.api('DELETE', path, { key });
  expectStatus(removed, 200, `DELETE ${path}`);
  const after = await client.api('GET', path, { key });
  expectStatus(after, 404, `GET ${path} after its deletion`);
  return `${id} deleted (GET answers 404)`;
}

async function removeEndpoint({ client, key, created }: Run): Promise<string> {
  const id = created.webhook_endpoint_id ?? '';
  return removeThenGone(client, key, `/v1/webhook-endpoints/${encodeURIComponent(id)}/`, id);
}

async function refundCharge({ client, key, created }: Run): Promise<string> {
  const answer = await client.api('POST', '/v1/refunds/', {
    key,
    body: { charge_id: created.charge_id, reason: 'requested_by_customer' },
  });
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`POST /v1/refunds/ answered ${describe(answer)}`);
  return `${created.charge_id} refunded in full (refund ${answer.json?.id ?? '?'}, ${answer.json?.status ?? '?'})`;
}

async function removeCustomer({ client, key, payer, created }: Run): Promise<string> {
  // The checkout made the payer a customer, found by the run's own e-mail address.
  const search = await client.api('GET', `/v1/customers/?search=${encodeURIComponent(payer)}`, { key });
  if (search.status === 404) return 'the checkout made no customer';
  expectStatus(search, 200, 'GET /v1/customers/?search=');
  const ids = (Array.isArray(search.json) ? search.json : [])
    .filter((customer: { email?: string }) => customer.email === payer)
    .map((customer: { id: string }) => customer.id);
  created.customer_ids = ids;
  for (const id of ids) await removeThenGone(client, key, `/v1/customers/${encodeURIComponent(id)}/`, id);
  return ids.length > 0 ? `${ids.join(', ')} deleted (GET answers 404)` : 'the checkout made no customer';
}

async function removePlan({ client, key, created }: Run): Promise<string> {
  const id = created.plan_id ?? '';
  return removeThenGone(client, key, `/v1/plans/${encodeURIComponent(id)}/`, id);
}

/** The clean-up, in order, each step only when the run made what it removes. */
const cleanups: (Omit<Check, 'needs'> & { when: (run: Run) => boolean })[] = [
  {
    name: 'clean-up: endpoint',
    when: (run) => run.created.webhook_endpoint_id !== undefined,
    run: removeEndpoint,
  },
  { name: 'clean-up: refund', when: (run) => run.created.charge_id !== undefined, run: refundCharge },
  { name: 'clean-up: customer', when: (run) => run.payAttempted, run: removeCustomer },
  { name: 'clean-up: plan', when: (run) => run.created.plan_id !== undefined, run: removePlan },
];

/** cobro's own account of its attempts to deliver to the endpoint, to say why nothing arrived. */
async function attemptsOf(client: Client, key: string, created: Created): Promise<string> {
  try {
    const id = encodeURIComponent(created.webhook_endpoint_id ?? '');
    const answer = await client.api('GET', `/v1/webhook-endpoints/${id}/deliveries/`, { key });
    if (answer.status !== 200) return '';
    const attempts = (answer.json?.results ?? []) as { status_code?: number | null; error?: string | null }[];
    const last = attempts[0];
    if (!last) return "; cobro's deliveries list shows no attempt yet";
    return `; cobro's attempts: ${answer.json.count ?? attempts.length}, the last answered ${
      last.status_code ?? `nothing (${last.error ?? 'no error recorded'})`
    }`;
  } catch {
    return '';
  }
}

/**
 * Runs every check, then the clean-up; hands each step's result to `report` as it ends. `signal`
 * (Ctrl-C) stops the checks, never the clean-up.
 */
export async function runSmoke(
  options: SmokeOptions,
  report: (result: StepResult) => void,
  signal: AbortSignal,
): Promise<{ results: StepResult[]; created: Created }> {
  const tag = randomBytes(4).toString('hex');
  const run: Run = {
    options,
    client: createClient(options.url, signal),
    key: options.key,
    tag,
    payer: `smoke-${tag}@example.com`,
    created: {},
    signal,
    payAttempted: false,
  };
  const results: StepResult[] = [];
  const passed = new Set<string>();
  const record = (result: StepResult) => {
    results.push(result);
    report(result);
  };
  async function step(name: string, check: (run: Run) => Promise<string>): Promise<void> {
    const started = performance.now();
    try {
      const detail = await check(run);
      passed.add(name);
      record({ step: name, outcome: 'ok', ms: Math.round(performance.now() - started), detail });
    } catch (error) {
      record({
        step: name,
        outcome: error instanceof NotApplicable ? 'skip' : 'FAIL',
        ms: Math.round(performance.now() - started),
        detail: (error as Error).message,
      });
    }
  }

  try {
    for (const check of checks) {
      const missing = check.needs.find((need) => !passed.has(need));
      if (missing !== undefined || signal.aborted) {
        const why = missing === undefined ? 'interrupted' : `"${missing}" did not pass`;
        record({ step: check.name, outcome: 'skip', ms: 0, detail: `not run: ${why}` });
      } else await step(check.name, check.run);
    }
  } finally {
    await run.receiver?.close();
    // The clean-up runs even after Ctrl-C, with a client of its own that only the per-request limit stops.
    run.client = createClient(options.url, new AbortController().signal);
    for (const cleanup of cleanups) if (cleanup.when(run)) await step(cleanup.name, cleanup.run);
  }
  return { results, created: run.created };
}
