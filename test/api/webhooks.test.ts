/**
 * Webhook endpoints, events and delivery through the local gateway and bus, verified as a merchant's
 * server would with the `standardwebhooks` package against a loopback receiver.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eventCatalogue } from '../../shared/api/events.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { fanOut, maxAttempts, retryScheduleMs } from '../../shared/webhooks/delivery.ts';
import { storedEvent } from '../../shared/webhooks/events.ts';
import { deadLetters } from '../../shared/webhooks/repository.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import {
  createPayment,
  csrfOf,
  openPage,
  payThroughCheckout,
  postForm,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { eventually } from '../support/eventually.ts';
import { pipelineDrained, pipelineState, relayFailedSince } from '../support/pipeline.ts';
import { type Receiver, startReceiver, verify } from '../support/receiver.ts';
import {
  api,
  apiKey,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { connectStripe, payThroughStripe, standIn } from '../support/stripe.ts';
import { subscribe } from '../support/subscriptions.ts';
import { storedEventItems } from '../support/table.ts';
import { sweepEndpointAt } from '../support/webhooks.ts';

let receiver: Receiver;
let paths = 0;
/** A receiver path of its own for each endpoint. */
const nextPath = () => `/hook-${++paths}`;

beforeAll(async () => {
  useLocalEnvironment();
  receiver = await startReceiver();
});

async function register(account: TestAccount, body: Record<string, unknown> = {}, key = account.testKey) {
  const path = nextPath();
  const created = await api('POST', '/v1/webhook-endpoints/', {
    auth: apiKey(key),
    body: { url: `${receiver.url}${path}`, ...body },
  });
  expect(created.status, created.text).toBe(201);
  return { path, id: created.json.data.id as string, secret: created.json.data.secret as string, created };
}

const at = (path: string) => (request: { path: string }) => request.path === path;

async function deliveries(account: TestAccount, endpointId: string) {
  const answer = await api('GET', `/v1/webhook-endpoints/${endpointId}/deliveries/?page_size=100`, {
    auth: apiKey(account.testKey),
  });
  expect(answer.status, answer.text).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary fields of the listed attempts
  return answer.json as { count: number; results: Record<string, any>[] };
}

/** The deliveries list once it has `count` attempts (for up to `timeoutMs`). */
const waitForAttempts = (account: TestAccount, endpointId: string, count: number, timeoutMs = 15_000) =>
  eventually(
    `${count} attempt(s) listed for ${endpointId}`,
    async () => {
      const listed = await deliveries(account, endpointId);
      return listed.count >= count ? listed : undefined;
    },
    { timeout: timeoutMs, interval: 50 },
  );

/** A paid checkout and a refund of part of it: `payment.succeeded`, then `refund.created`. */
async function payAndRefund(auth: string) {
  const paid = await payThroughCheckout(auth);
  const refund = await api('POST', '/v1/refunds/', {
    auth,
    body: { charge_id: paid.chargeId, amount: '1.00', reason: 'requested_by_customer' },
  });
  expect(refund.status, refund.text).toBe(201);
  return paid;
}

/** The retry sweep at a time the test chooses (the clock it controls), for one endpoint's tasks. */
const sweepAt = (now: Date, account: TestAccount, endpointId: string) =>
  sweepEndpointAt(now, account.developerId, endpointId);

describe('webhook endpoints: per account and mode, secret shown on creation and rotation only', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount('endpoints');
  });

  it('creation shows the secret once; get, list, update and delete never show it', async () => {
    const { id, created } = await register(account, { events: ['payment.succeeded'], description: 'orders' });
    expect(Object.keys(created.json.data).sort()).toEqual(['events', 'id', 'secret', 'url']);
    expect(created.json.data.id).toMatch(/^we_[A-Za-z0-9]{24}$/);
    expect(created.json.data.secret).toMatch(/^whsec_/);
    const auth = apiKey(account.testKey);
    const got = await api('GET', `/v1/webhook-endpoints/${id}/`, { auth });
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      id,
      url: created.json.data.url,
      events: ['payment.succeeded'],
      description: 'orders',
      enabled: true,
      created_at: expect.any(String),
    });
    const listed = await api('GET', '/v1/webhook-endpoints/', { auth });
    expect(listed.status).toBe(200);
    expect(listed.json.count).toBeGreaterThanOrEqual(1);
    expect(listed.json.results[0]).toEqual(got.json);
    expect(listed.text).not.toContain('whsec_');
    const updated = await api('PUT', `/v1/webhook-endpoints/${id}/`, {
      auth,
      body: { events: ['*'], description: 'all', enabled: false },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.data).toMatchObject({ id, events: ['*'], description: 'all', enabled: false });
    expect(updated.text).not.toContain('whsec_');
    expect((await api('DELETE', `/v1/webhook-endpoints/${id}/`, { auth })).status).toBe(200);
    expect((await api('GET', `/v1/webhook-endpoints/${id}/`, { auth })).status).toBe(404);
    expect((await api('DELETE', `/v1/webhook-endpoints/${id}/`, { auth })).status).toBe(404);
  });

  it('endpoints belong to an account and a mode: others get 404', async () => {
    const { id } = await register(account);
    const other = await newAccount('endpoints-other');
    expect((await api('GET', `/v1/webhook-endpoints/${id}/`, { auth: apiKey(other.testKey) })).status).toBe(
      404,
    );
    expect((await api('GET', `/v1/webhook-endpoints/${id}/`, { auth: apiKey(account.liveKey) })).status).toBe(
      404,
    );
    expect(
      (await api('GET', '/v1/webhook-endpoints/not-an-id/', { auth: apiKey(account.testKey) })).status,
    ).toBe(404);
  });

  it('takes test/is_test when they agree with the key, and refuses a contradiction (records never change mode)', async () => {
    const auth = apiKey(account.testKey);
    const agreeing = await api('POST', '/v1/webhook-endpoints/', {
      auth,
      body: { url: `${receiver.url}/modes`, test: true },
    });
    expect(agreeing.status).toBe(201);
    const id = agreeing.json.data.id as string;
    const contradicting = await api('POST', '/v1/webhook-endpoints/', {
      auth,
      body: { url: `${receiver.url}/modes`, is_test: false },
    });
    expect(contradicting.status).toBe(400);
    const moved = await api('PUT', `/v1/webhook-endpoints/${id}/`, { auth, body: { test: false } });
    expect(moved.status).toBe(400);
    expect((await api('GET', `/v1/webhook-endpoints/${id}/`, { auth })).json.enabled).toBe(true);
  });

  it('refuses unknown event types, a missing url and unknown fields with 400', async () => {
    const auth = apiKey(account.testKey);
    for (const body of [
      { url: `${receiver.url}/x`, events: ['no.such_type'] },
      { url: `${receiver.url}/x`, events: [] },
      { events: ['*'] },
      { url: `${receiver.url}/x`, secret: 'whsec_mine' },
      { url: 'ftp://example.com/hook' },
    ]) {
      const answer = await api('POST', '/v1/webhook-endpoints/', { auth, body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('SSRF: live URLs must be https to public addresses; test mode allows loopback but not metadata', async () => {
    const live = apiKey(account.liveKey);
    const refused = [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook', // a name that resolves to 127.0.0.1
      'https://10.0.0.8/hook',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/hook',
      // ISATAP (RFC 5214) carries the IPv4 address after ::5efe or ::200:5efe, under any /64 prefix.
      'https://[::5efe:169.254.169.254]/latest/meta-data/',
      'https://[::200:5efe:127.0.0.1]/hook',
      'https://[2606:2800:220:1:0:5efe:a9fe:a9fe]/hook',
    ];
    for (const url of refused) {
      const answer = await api('POST', '/v1/webhook-endpoints/', { auth: live, body: { url } });
      expect(answer.status, url).toBe(400);
    }
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[::5efe:169.254.169.254]/latest/meta-data/',
      'http://[2001:db8::200:5efe:a9fe:a9fe]/latest/meta-data/',
    ]) {
      const metadata = await api('POST', '/v1/webhook-endpoints/', {
        auth: apiKey(account.testKey),
        body: { url },
      });
      expect(metadata.status, url).toBe(400);
    }
    const { id } = await register(account); // http://127.0.0.1 in test mode
    const moved = await api('PUT', `/v1/webhook-endpoints/${id}/`, {
      auth: apiKey(account.testKey),
      body: { url: 'http://169.254.169.254/' },
    });
    expect(moved.status).toBe(400);
  });

  it("test mode never points at the local stack's own services (mail store, table, emulators, bus, API, control)", async () => {
    const auth = apiKey(account.testKey);
    const control = Number(new URL(localInfo.control_url as string).port);
    const own = [
      `http://127.0.0.1:${localInfo.ports.ses}/clear-store`,
      `http://localhost:${localInfo.ports.dynamodb}/`,
      `http://[::ffff:127.0.0.1]:${localInfo.ports.s3}/cobro-local-media/`,
      `http://127.0.0.1:${localInfo.ports.eventbridge}/_local/outage`,
      `http://127.0.0.1:${localInfo.ports.api}/v1/payments/`,
      `http://[::5efe:127.0.0.1]:${localInfo.ports.api}/v1/payments/`,
      `http://127.0.0.1:${control}/acquirer/faults`,
    ];
    for (const url of own) {
      const answer = await api('POST', '/v1/webhook-endpoints/', { auth, body: { url } });
      expect(answer.status, url).toBe(400);
      expect(answer.json, url).toEqual({
        code: 400,
        title: 'Webhook URL refused',
        content: `url is one of the local stack's own services (port ${new URL(url).port} of this machine)`,
        type: 'error',
      });
    }
    const { id } = await register(account);
    const moved = await api('PUT', `/v1/webhook-endpoints/${id}/`, { auth, body: { url: own[0] } });
    expect(moved.status).toBe(400);
    expect((await api('GET', `/v1/webhook-endpoints/${id}/`, { auth })).json.url).toContain(receiver.url);
  });

  it('an account has at most 16 endpoints per mode, however many are created at once', async () => {
    const crowded = await newAccount('endpoints-limit');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        api('POST', '/v1/webhook-endpoints/', {
          auth: apiKey(crowded.testKey),
          body: { url: `${receiver.url}/crowd` },
        }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(16);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(4);
    const listed = await api('GET', '/v1/webhook-endpoints/?page_size=100', {
      auth: apiKey(crowded.testKey),
    });
    expect(listed.json.count).toBe(16);
  });
});

describe('delivery (Standard Webhooks): every event type there is, signed and verified', () => {
  let account: TestAccount;
  let endpoint: Awaited<ReturnType<typeof register>>;
  beforeAll(async () => {
    account = await newAccount('delivery');
    endpoint = await register(account);
  });

  it('a checkout payment, a decline, a refund, a legacy charge, a plan deletion, a key rotation, a card replaced from the portal, a subscription change, renewals, dunning and a paid payment link', async () => {
    const auth = apiKey(account.testKey);
    const paid = await payThroughCheckout(auth);
    const declined = await createPayment(auth);
    expect((await submitCard(declined.url, { card_number: testCards.insufficientFunds })).status).toBe(402);
    const refund = await api('POST', '/v1/refunds/', {
      auth,
      body: { charge_id: paid.chargeId, amount: '1.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    const charge = await api('POST', '/v1/charges/simple/create/', {
      auth,
      rawBody: new URLSearchParams({
        amount: '12.50',
        currency: 'usd',
        description: 'legacy',
        entity_description: 'Shop',
        credit_card_number: '4242424242424242',
        credit_card_security_code_number: '123',
        exp_month: '12',
        exp_year: String(new Date().getUTCFullYear() + 3),
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(charge.status, charge.text).toBe(201);
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Gold', amount: '10.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    const planKey = plan.json.data.id as string;
    expect((await api('DELETE', `/v1/plans/${planKey}/`, { auth })).status).toBe(200);
    expect((await api('PATCH', '/v1/auth/api-keys/', { auth, body: { type: 'test' } })).status).toBe(200);
    // A subscription through its checkout: created, then activated by the bus's consumer.
    const gold = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Hooks', amount: '2.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const started = await api('POST', '/v1/subscriptions', {
      auth,
      body: { plan_id: gold.json.data.id, return_url: 'https://shop.example/ok' },
    });
    expect(started.status, started.text).toBe(201);
    expect((await submitCard(started.json.data.checkout_url)).status).toBe(303);
    // Its subscriber replaces its card from the customer portal.
    const subscriptionId = started.json.data.subscription_id as string;
    const subscriber = (await api('GET', `/v1/subscriptions/${subscriptionId}`, { auth })).json.customer_id;
    const portal = await api('POST', `/v1/customers/${subscriber}/portal/`, { auth });
    expect(portal.status, portal.text).toBe(201);
    const portalPage = await openPage(portal.json.url as string);
    const toCard = await postForm(portal.json.url as string, {
      csrf_token: csrfOf(portalPage.html),
      action: 'card',
      subscription_id: subscriptionId,
    });
    expect(toCard.status, toCard.html).toBe(303);
    expect((await submitCard(toCard.location as string)).status).toBe(303);
    // The merchant changes it: its metadata, and an end at the period's end.
    const changed = await api('PUT', `/v1/subscriptions/${subscriptionId}`, {
      auth,
      body: { metadata: { order: 'hooks-1' }, cancel_at_period_end: true },
    });
    expect(changed.status, changed.text).toBe(200);
    // A payment link paid on its page.
    const link = await api('POST', '/v1/payment-links/', {
      auth,
      body: { description: 'Hooks link', amount: '3.00' },
    });
    expect(link.status, link.text).toBe(201);
    expect((await submitCard(link.json.data.link)).status).toBe(200);
    // The billing step's events: a renewal, and a card that declines renewals until canceled.
    const renewing = await subscribe({ account, planId: 'a-plan', anchor: '2031-01-15T00:00:00.000Z' });
    const declining = await subscribe({
      account,
      planId: 'a-plan',
      anchor: '2031-01-15T00:00:00.000Z',
      card: testCards.declinesWhenStored,
    });
    const billing = {
      ...makeDeps(),
      acquirer: simulatedAcquirer(() => new Date('2020-01-01')),
    };
    for (const now of ['2031-02-15', '2031-02-16', '2031-02-18', '2031-02-20']) {
      await runBilling(billing, new Date(`${now}T00:00:00.000Z`), { developerId: account.developerId });
    }
    expect(renewing.id).not.toBe(declining.id);
    // A dispute, as an acquirer that reports them (Stripe) tells it: test mode connected to the stand-in.
    const stripe = await connectStripe(account, 'test');
    const disputed = await createPayment(auth);
    await payThroughStripe(disputed.url);
    const disputedCharge = (await api('GET', `/v1/payments/${disputed.id}`, { auth })).json.charge_id;
    const intent = (
      await getCharge(makeDeps(), { developerId: account.developerId, mode: 'test' }, disputedCharge)
    )?.acquirer_reference;
    expect(stripe.account_id).toMatch(/^acct_/);
    await standIn('POST', '/_standin/disputes', { payment_intent: intent });
    // Stripe tells cobro of it by its own webhook, in its own time: the dispute's event is stored
    // before the pipeline below can be drained of it.
    await eventually('the dispute recorded from its Stripe event', async () =>
      (await storedEventItems(account.developerId, 'test')).some(
        (item) => item.detail.type === 'charge.dispute.created',
      )
        ? true
        : undefined,
    );

    const types = new Set(eventCatalogue.map((type) => type.type));
    const typesAt = () =>
      new Set(receiver.received.filter(at(endpoint.path)).map((request) => request.json.type));
    // Everything those requests caused has gone through the pipeline: a type missing now is named.
    await pipelineDrained(localInfo, account.developerId);
    expect([...types].filter((type) => !typesAt().has(type))).toEqual([]);
    expect(typesAt()).toEqual(types);
    const got = receiver.received.filter(at(endpoint.path));
    for (const request of got) {
      // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of the verified body
      const verified = verify(endpoint.secret, request) as Record<string, any>;
      expect(request.headers['webhook-id']).toBe(verified.id);
      expect(verified.id).toMatch(/^evt_/);
      expect(Object.keys(verified).sort()).toEqual(['created_at', 'data', 'id', 'test', 'type']);
      expect(verified.test).toBe(true);
      expect(verified.data.object).toBeTypeOf('object');
      // The body is the event as GET /v1/events/{id}/ shows it.
      const stored = await api('GET', `/v1/events/${verified.id}/`, { auth: apiKey(account.liveKey) });
      expect(stored.status).toBe(404); // a live key sees no test event
    }
    const succeeded = got.find((request) => request.json.type === 'payment.succeeded');
    expect(succeeded?.json.data.object).toMatchObject({ id: paid.id, charge_id: paid.chargeId });
    const failed = got.find((request) => request.json.type === 'payment.failed');
    expect(failed?.json.data.object).toMatchObject({ id: declined.id, decline_reason: 'insufficient_funds' });
  });
});

describe('retries, 410, rotation and redelivery', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount('retries');
  });

  it('a receiver that fails and then succeeds gets the same webhook-id twice; both attempts are listed', async () => {
    const endpoint = await register(account, { events: ['refund.created', 'payment.succeeded'] });
    receiver.answer(endpoint.path, 500);
    const started = Date.now();
    await payThroughCheckout(apiKey(account.testKey));
    const first = await waitForAttempts(account, endpoint.id, 1);
    const failed = first.results[0];
    expect(failed).toMatchObject({ attempt: 1, status_code: 500, event_type: 'payment.succeeded' });
    expect(Date.parse(failed?.next_retry_at) - Date.parse(failed?.created_at)).toBe(retryScheduleMs[0]);
    // The retry runs at its due time; three sweeps at once (and the stack's own) make one attempt.
    const due = new Date(failed?.next_retry_at);
    await Promise.all([0, 1, 2].map(() => sweepAt(due, account, endpoint.id)));
    const both = await waitForAttempts(account, endpoint.id, 2);
    expect(both.results.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([
      [2, 200],
      [1, 500],
    ]);
    expect(both.results[0]?.next_retry_at).toBeNull();
    // The other two hand-overs have run their course (the claim turned them away): still two.
    await pipelineDrained(localInfo, account.developerId);
    expect((await deliveries(account, endpoint.id)).count).toBe(2);
    const requests = await receiver.waitFor(at(endpoint.path), 2);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.headers['webhook-id']).toBe(requests[1]?.headers['webhook-id']);
    for (const request of requests) verify(endpoint.secret, request);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("the stack's own sweep (every second locally) retries a failed delivery once it falls due", async () => {
    const endpoint = await register(account, { events: ['payment.succeeded'] });
    receiver.answer(endpoint.path, 500);
    await payThroughCheckout(apiKey(account.testKey));
    // The first retry is due 5 s after the failure; the schedule hands it over without the test.
    const both = await waitForAttempts(account, endpoint.id, 2, 30_000);
    const [retried, failed] = both.results;
    expect([retried?.status_code, failed?.status_code]).toEqual([200, 500]);
    expect(Date.parse(retried?.created_at)).toBeGreaterThanOrEqual(Date.parse(failed?.next_retry_at));
  }, 40_000);

  it('follows the Standard Webhooks schedule to 10 attempts, then marks the delivery failed and dead-letters it', async () => {
    const endpoint = await register(account, { events: ['payment.succeeded'] });
    receiver.answer(endpoint.path, ...Array.from({ length: maxAttempts }, () => 503));
    await payThroughCheckout(apiKey(account.testKey));
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const listed = await waitForAttempts(account, endpoint.id, attempt);
      const latest = listed.results[0];
      expect(latest).toMatchObject({ attempt, status_code: 503 });
      if (attempt === maxAttempts) {
        expect(latest?.next_retry_at).toBeNull();
        break;
      }
      expect(Date.parse(latest?.next_retry_at) - Date.parse(latest?.created_at)).toBe(
        retryScheduleMs[attempt - 1],
      );
      await sweepAt(new Date(latest?.next_retry_at), account, endpoint.id);
    }
    const listed = await deliveries(account, endpoint.id);
    expect(listed.count).toBe(maxAttempts);
    // No attempt ran before its due time. (Later is possible: other suites sweep the same stack
    // at times of their own choosing, and a sweep runs whatever is due by then.)
    const oldestFirst = [...listed.results].reverse();
    for (let i = 1; i < oldestFirst.length; i++) {
      expect(Date.parse(oldestFirst[i]?.created_at)).toBeGreaterThanOrEqual(
        Date.parse(oldestFirst[i - 1]?.next_retry_at),
      );
    }
    const span = Date.parse(listed.results[0]?.created_at) - Date.parse(listed.results.at(-1)?.created_at);
    expect(span).toBeGreaterThanOrEqual(retryScheduleMs.reduce((sum, wait) => sum + wait, 0)); // about 3 days
    const letters = await deadLetters(makeDeps(), new Date(listed.results[0]?.created_at), 1);
    expect(
      letters.some((letter) => letter.endpoint_id === endpoint.id && letter.attempts === maxAttempts),
    ).toBe(true);
    // Nothing is due for it any more: a sweep far in the future hands nothing over, sends nothing.
    const late = new Date(Date.parse(listed.results[0]?.created_at) + 7 * 86_400_000);
    expect(await sweepAt(late, account, endpoint.id)).toBe(0);
    await pipelineDrained(localInfo, account.developerId);
    expect((await deliveries(account, endpoint.id)).count).toBe(maxAttempts);
  });

  it('410 Gone disables the endpoint until a PUT enables it again', async () => {
    const endpoint = await register(account, { events: ['payment.succeeded'] });
    receiver.answer(endpoint.path, 410);
    const auth = apiKey(account.testKey);
    await payThroughCheckout(auth);
    const first = await waitForAttempts(account, endpoint.id, 1);
    expect(first.results[0]).toMatchObject({ status_code: 410, next_retry_at: null });
    const disabled = await api('GET', `/v1/webhook-endpoints/${endpoint.id}/`, { auth });
    expect(disabled.json.enabled).toBe(false);
    await payThroughCheckout(auth);
    // The second payment's event has been through the fan-out: a disabled endpoint gets no task.
    await pipelineDrained(localInfo, account.developerId);
    expect((await deliveries(account, endpoint.id)).count).toBe(1);
    expect(
      (await api('PUT', `/v1/webhook-endpoints/${endpoint.id}/`, { auth, body: { enabled: true } })).status,
    ).toBe(200);
    await payThroughCheckout(auth);
    const again = await waitForAttempts(account, endpoint.id, 2);
    expect(again.results[0]).toMatchObject({ attempt: 1, status_code: 200 });
  });

  it('after rotate-secret, deliveries carry both signatures for 24 hours, then only the new one', async () => {
    const endpoint = await register(account, { events: ['payment.succeeded'] });
    const auth = apiKey(account.testKey);
    const rotated = await api('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret/`, { auth });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.json.data).toEqual({ id: endpoint.id, secret: expect.stringMatching(/^whsec_/) });
    expect(rotated.json.data.secret).not.toBe(endpoint.secret);
    receiver.answer(endpoint.path, 200, 500);
    await payThroughCheckout(auth);
    const [overlap] = await receiver.waitFor(at(endpoint.path), 1);
    expect(String(overlap?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verify(endpoint.secret, overlap as never);
    verify(rotated.json.data.secret, overlap as never);
    // A retry 25 hours later is signed with the new secret alone.
    await payThroughCheckout(auth);
    const failed = (await waitForAttempts(account, endpoint.id, 2)).results[0];
    expect(failed?.status_code).toBe(500);
    await sweepAt(new Date(Date.now() + 25 * 3_600_000), account, endpoint.id);
    const requests = await receiver.waitFor(at(endpoint.path), 3);
    const late = requests[2];
    expect(String(late?.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => verify(endpoint.secret, late as never)).toThrow();
    // standardwebhooks checks the timestamp against its own clock: the late one is 25 h ahead.
    expect(Number(late?.headers['webhook-timestamp']) * 1000).toBeGreaterThan(Date.now() + 23 * 3_600_000);
  });

  it('redeliver sends the event again with its webhook-id, to one endpoint or to all that take it', async () => {
    const one = await register(account, { events: ['refund.created'] });
    const two = await register(account, { events: ['*'] });
    const auth = apiKey(account.testKey);
    await payAndRefund(auth);
    const [original] = await receiver.waitFor((request) => request.path === one.path, 1);
    const eventId = String(original?.headers['webhook-id']);
    await receiver.waitFor((r) => r.path === two.path && r.headers['webhook-id'] === eventId, 1);
    const toOne = await api('POST', `/v1/events/${eventId}/redeliver/`, {
      auth,
      body: { endpoint_id: one.id },
    });
    expect(toOne.status, toOne.text).toBe(202);
    const again = await receiver.waitFor((request) => request.path === one.path, 2);
    expect(again[1]?.headers['webhook-id']).toBe(eventId);
    verify(one.secret, again[1] as never);
    const toAll = await api('POST', `/v1/events/${eventId}/redeliver/`, { auth });
    expect(toAll.status).toBe(202);
    await receiver.waitFor((request) => request.path === one.path, 3);
    const atTwo = await receiver.waitFor(
      (r) => r.path === two.path && r.headers['webhook-id'] === eventId,
      2,
    );
    expect(atTwo).toHaveLength(2);
    const listed = await waitForAttempts(account, one.id, 3);
    expect(listed.results.every((attempt) => attempt.event_id === eventId && attempt.attempt === 1)).toBe(
      true,
    );
    const absent = await api('POST', `/v1/events/${eventId}/redeliver/`, {
      auth,
      body: { endpoint_id: 'we_AAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(absent.status).toBe(400);
    const malformed = await api('POST', `/v1/events/${eventId}/redeliver/`, {
      auth,
      body: { endpoint_id: `we_${'x'.repeat(5000)}` },
    });
    expect(malformed.status).toBe(400);
    const noEvent = await api('POST', '/v1/events/evt_AAAAAAAAAAAAAAAAAAAAAAAA/redeliver/', { auth });
    expect(noEvent.status).toBe(404);
  });

  it('an endpoint receives only the types it names', async () => {
    const refunds = await register(account, { events: ['refund.created'] });
    const auth = apiKey(account.testKey);
    await payAndRefund(auth);
    expect(await receiver.waitFor(at(refunds.path), 1)).toHaveLength(1);
    // Both events have been through the fan-out and every task made was delivered: nothing else came.
    await pipelineDrained(localInfo, account.developerId);
    expect(receiver.received.filter(at(refunds.path)).map((request) => request.json.type)).toEqual([
      'refund.created',
    ]);
  });
});

describe('the outbox and the delivery pipeline', () => {
  let account: TestAccount;
  beforeAll(async () => {
    account = await newAccount('outbox');
  });
  const outage = async (down: boolean) => {
    const answer = await fetch(`${localInfo.endpoints.eventbridge}/_local/outage`, {
      method: 'POST',
      body: JSON.stringify({ down }),
    });
    expect(answer.status).toBe(200);
  };

  it('with the bus unreachable a payment succeeds; when it is back the event is delivered once', async () => {
    const endpoint = await register(account, { events: ['payment.succeeded'] });
    const auth = apiKey(account.testKey);
    await outage(true);
    try {
      const paid = await payThroughCheckout(auth); // the payment does not wait for the bus
      const listed = await api('GET', '/v1/events/?type=payment.succeeded', { auth });
      expect(
        listed.json.results.map((event: { data: { object: { id: string } } }) => event.data.object.id),
      ).toEqual([paid.id]);
      // The relay has met the outage since the payment was stored, and nothing got past the bus.
      await relayFailedSince(localInfo, (await pipelineState(localInfo)).relay_failures);
      expect(receiver.received.filter(at(endpoint.path))).toHaveLength(0);
    } finally {
      await outage(false);
    }
    expect(await receiver.waitFor(at(endpoint.path), 1)).toHaveLength(1);
    await pipelineDrained(localInfo, account.developerId);
    expect(receiver.received.filter(at(endpoint.path))).toHaveLength(1);
    expect((await deliveries(account, endpoint.id)).count).toBe(1);
  });

  /** Changes the bus's fault settings named in `body` (GET without one); answers those in force. */
  const busFaults = async (body?: Record<string, unknown>) => {
    const answer = await fetch(`${localInfo.endpoints.eventbridge}/_local/outage`, {
      method: body ? 'POST' : 'GET',
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    expect(answer.status).toBe(200);
    return (await answer.json()) as { down: boolean; fail_entries: number; fail_detail: unknown };
  };

  /** A legacy charge: it stores `charge.succeeded`. Answers the charge's id. */
  const legacyCharge = async (auth: string, amount: string) => {
    const charged = await api('POST', '/v1/charges/simple/create/', {
      auth,
      rawBody: new URLSearchParams({
        amount,
        currency: 'usd',
        credit_card_number: testCards.approved,
        credit_card_security_code_number: '123',
        exp_month: '12',
        exp_year: String(new Date().getUTCFullYear() + 3),
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(charged.status, charged.text).toBe(201);
    return charged.json.id as string;
  };

  it('with the bus refusing some entries of its calls, every stored event reaches the endpoint, once', async () => {
    // An account of its own: only its events are refused, so the suites sharing the stack go on.
    const own = await newAccount('partial-bus');
    const endpoint = await register(own, { events: ['charge.succeeded', 'payment.succeeded'] });
    const auth = apiKey(own.testKey);
    // A checkout payment stores charge.succeeded and payment.succeeded in one transaction, so one
    // call to the bus carries both: refusing payment.succeeded while taking charge.succeeded is a
    // partial failure of that call.
    const fault = { developer_id: own.developerId, type: 'payment.succeeded' };
    expect(await busFaults({ fail_entries: 2, fail_detail: fault })).toMatchObject({ fail_entries: 2 });
    try {
      const [paid, legacy] = await Promise.all([
        Promise.all([payThroughCheckout(auth), payThroughCheckout(auth)]),
        Promise.all(['1.00', '2.00', '3.00'].map((amount) => legacyCharge(auth, amount))),
      ]);
      const stored = (await storedEventItems(own.developerId, 'test')).map((item) => String(item.detail.id));
      expect(stored).toHaveLength(7);
      const delivered = await receiver.waitFor(at(endpoint.path), stored.length, 30_000);
      // Each stored event arrived once (one task per event and endpoint, whatever the bus took twice).
      expect(delivered.map((request) => String(request.headers['webhook-id'])).sort()).toEqual(stored.sort());
      const objects = (type: string) =>
        delivered
          .filter((request) => request.json.type === type)
          .map((request) => request.json.data.object.id)
          .sort();
      expect(objects('payment.succeeded')).toEqual(paid.map((payment) => payment.id).sort());
      expect(objects('charge.succeeded')).toEqual(
        [...legacy, ...paid.map((payment) => payment.chargeId)].sort(),
      );
      for (const request of delivered) verify(endpoint.secret, request);
      // Both refusals were made: those events went through the stream again rather than past it.
      expect((await busFaults()).fail_entries).toBe(0);
    } finally {
      await busFaults({ fail_entries: 0, fail_detail: null });
    }
  }, 60_000);

  it('an event handed to the fan-out twice makes one task, so one delivery', async () => {
    const endpoint = await register(account, { events: ['payment.succeeded'] });
    const auth = apiKey(account.testKey);
    const paid = await payThroughCheckout(auth);
    const [request] = await receiver.waitFor(at(endpoint.path), 1);
    const stored = await storedEvent(makeDeps(), String(request?.headers['webhook-id']));
    expect(stored?.data).toMatchObject({ object: { id: paid.id } });
    // The bus is at-least-once: the same event arriving again makes no new task.
    expect(await fanOut(makeDeps(), stored as NonNullable<typeof stored>)).toBe(0);
    await pipelineDrained(localInfo, account.developerId);
    expect(receiver.received.filter(at(endpoint.path))).toHaveLength(1);
  });

  it('a slow receiver does not hold up another endpoint', async () => {
    const slow = await register(account, { events: ['payment.succeeded'] });
    const fast = await register(account, { events: ['payment.succeeded'] });
    receiver.delay(slow.path, 8_000);
    await payThroughCheckout(apiKey(account.testKey));
    const [atSlow] = await receiver.waitFor(at(slow.path), 1);
    const [atFast] = await receiver.waitFor(at(fast.path), 1);
    // The fast one is served while the slow one still keeps its request open.
    expect(atFast).toBeDefined();
    expect(Math.abs((atFast?.at ?? 0) - (atSlow?.at ?? 0))).toBeLessThan(3_000);
    const fastListed = await waitForAttempts(account, fast.id, 1);
    expect(Date.parse(fastListed.results[0]?.created_at)).toBeLessThan((atSlow?.at ?? 0) + 8_000);
    const slowListed = await waitForAttempts(account, slow.id, 1);
    expect(slowListed.results[0]?.duration_ms).toBeGreaterThanOrEqual(7_500);
  }, 30_000);
});

describe('events API: stored events of the account and mode, kept 30 days', () => {
  it('lists every stored event newest first in Envelope B, filters by type, and shows one', async () => {
    const account = await newAccount('events-api');
    const auth = apiKey(account.testKey);
    await payThroughCheckout(auth);
    const declined = await createPayment(auth);
    await submitCard(declined.url, { card_number: testCards.insufficientFunds });
    const all = await api('GET', '/v1/events/', { auth });
    expect(all.status, all.text).toBe(200);
    expect(all.json).toMatchObject({ count: 3, next: null, previous: null });
    // Every approved charge, whatever made it, stores charge.succeeded beside the payment's own event.
    expect(all.json.results.map((event: { type: string }) => event.type)).toEqual([
      'payment.failed',
      expect.stringMatching(/^(payment|charge)\.succeeded$/),
      expect.stringMatching(/^(payment|charge)\.succeeded$/),
    ]);
    expect(new Set(all.json.results.slice(1).map((event: { type: string }) => event.type)).size).toBe(2);
    const paged = await api('GET', '/v1/events/?page_size=1', { auth });
    expect(paged.json.next).toBe(`${localInfo.api_url}/v1/events/?page=2&page_size=1`);
    const failed = await api('GET', '/v1/events/?type=payment.failed', { auth });
    expect(failed.json.count).toBe(1);
    const one = await api('GET', `/v1/events/${failed.json.results[0].id}/`, { auth });
    expect(one.status).toBe(200);
    expect(one.json).toEqual(failed.json.results[0]);
    expect(one.json.data.object.decline_reason).toBe('insufficient_funds');
    expect((await api('GET', '/v1/events/?page=4&page_size=1', { auth })).status).toBe(404);
    expect((await api('GET', '/v1/events/evt_nope/', { auth })).status).toBe(404);
    expect((await api('GET', '/v1/events/', { auth: apiKey(account.liveKey) })).json.count).toBe(0);
  });
});
