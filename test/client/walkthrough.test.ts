/**
 * The typed client (@cobro/client) against the test stack: a shop's walk-through (plan, customer,
 * subscription paid through its checkout with a 3-D Secure challenge, webhooks verified with
 * `verifyWebhook`, a refund), paging over more than one page, errors as `CobroError`, idempotency
 * keys; the README's example run as a user runs it; and a body of the wrong shape refused by the
 * type check (`npm run typecheck` fails on an unused `@ts-expect-error`) as by the server.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  CobroError,
  type CobroEvent,
  type CobroEventType,
  createCobro,
  type EventOf,
  isCobroError,
  verifyWebhook,
  WebhookVerificationError,
} from '@cobro/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardFields, csrfOf, openPage, postForm, submitCard, testCards } from '../support/checkout.ts';
import { type Received, type Receiver, startReceiver } from '../support/receiver.ts';
import { apiUrl, type Merchant, suiteMerchant } from '../support/stack.ts';

const root = resolve(import.meta.dirname, '../..');

/** A client of the test stack acting with the merchant's test key; `sent` records every request. */
function clientOf(merchant: Merchant) {
  const sent: Request[] = [];
  const cobro = createCobro({
    baseUrl: apiUrl,
    apiKey: merchant.account.testKey,
    fetch: (request) => {
      sent.push(request.clone());
      return fetch(request);
    },
  });
  return { cobro, sent };
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});

/** Waits for the delivery of `type` to `path` that `where` picks, verifies it and answers its event. */
async function delivered<TType extends CobroEventType>(
  secret: string,
  path: string,
  type: TType,
  where: (event: EventOf<TType>) => boolean = () => true,
): Promise<{ event: EventOf<TType>; request: Received }> {
  const [request] = await receiver.waitFor(
    (one) => one.path === path && one.json.type === type && where(one.json as EventOf<TType>),
  );
  expect(request, `no ${type} delivered to ${path}`).toBeDefined();
  const received = request as Received;
  const event: CobroEvent = verifyWebhook(secret, received.body, received.headers);
  expect(event.type).toBe(type);
  return { event: event as EventOf<TType>, request: received };
}

describe('a shop through the typed client', () => {
  const merchant = suiteMerchant('client-walkthrough');

  it('plan, customer, subscription paid with a 3-D Secure challenge, webhooks verified, a refund', async () => {
    const { cobro, sent } = clientOf(merchant);
    const endpoint = await cobro.POST('/v1/webhook-endpoints/', { body: { url: `${receiver.url}/shop` } });
    expect(endpoint.code).toBe(201);
    const secret = endpoint.data.secret;

    const plan = await cobro.POST('/v1/plans/', {
      body: { name: 'Gold', currency: 'USD', amount: '19.90', interval: 'month', interval_count: 1 },
    });
    const customer = await cobro.POST('/v1/customers/', {
      body: { first_name: 'Ada', last_name: 'Lovelace', email: `ada-${Date.now()}@example.com` },
    });
    const subscription = await cobro.POST('/v1/subscriptions', {
      body: {
        plan_id: plan.data.id,
        customer_id: customer.data.id,
        return_url: 'https://shop.example/welcome',
      },
    });
    expect(subscription.data.checkout_url).toMatch(/\/checkout\//);

    // The payer's side: the card asks for a challenge, the payer completes it.
    // The page knows its customer and asks for no e-mail, so the form carries none.
    const page = await openPage(subscription.data.checkout_url);
    expect(page.html).not.toContain('name="email"');
    const { email: _none, ...fields } = cardFields({ card_number: testCards.challenge });
    const challenged = await postForm(subscription.data.checkout_url, {
      csrf_token: csrfOf(page.html),
      ...fields,
    });
    expect(challenged.status, challenged.html).toBe(200);
    expect(challenged.html).toContain('Complete authentication');
    const passed = await postForm(`${subscription.data.checkout_url}/challenge`, {
      csrf_token: csrfOf(challenged.html),
      outcome: 'pass',
    });
    expect(passed.status, passed.html).toBe(303);
    expect(new URL(passed.location ?? '').searchParams.get('subscription_id')).toBe(
      subscription.data.subscription_id,
    );

    const activated = await delivered(
      secret,
      '/shop',
      'subscription.activated',
      (event) => event.data.object.subscription_id === subscription.data.subscription_id,
    );
    // Narrowed on its type: the subscription's fields, typed.
    expect(activated.event.data.object).toMatchObject({
      plan_id: plan.data.id,
      customer_id: customer.data.id,
      status: 'active',
    });
    const charged = await delivered(
      secret,
      '/shop',
      'charge.succeeded',
      (event) => event.data.object.subscription_id === subscription.data.subscription_id,
    );
    expect(charged.event.data.object.amount).toBe(19.9);

    // Only cobro's signature of exactly this body verifies.
    const { body, headers } = activated.request;
    expect(() => verifyWebhook(secret, body.replace('"active"', '"canceled"'), headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(`whsec_${Buffer.alloc(24).toString('base64')}`, body, headers)).toThrow(
      WebhookVerificationError,
    );
    expect(() => verifyWebhook(secret, body, { ...headers, 'webhook-signature': undefined })).toThrow(
      WebhookVerificationError,
    );
    // A Headers object, as fetch-style servers give them, verifies too.
    const asHeaders = new Headers(
      Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
    );
    expect(verifyWebhook(secret, Buffer.from(body), asHeaders).id).toBe(activated.event.id);

    const chargeId = charged.event.data.object.id;
    const refund = await cobro.POST('/v1/refunds/', {
      body: { charge_id: chargeId, amount: '5.00', reason: 'requested_by_customer' },
    });
    expect(refund).toMatchObject({ charge_id: chargeId, amount: '5.00', status: 'succeeded' });
    const refunded = await delivered(
      secret,
      '/shop',
      'refund.created',
      (event) => event.data.object.id === refund.id,
    );
    expect(refunded.event.data.object.reason).toBe('requested_by_customer');

    const view = await cobro.GET('/v1/charges/{charge_id}/', { params: { path: { charge_id: chargeId } } });
    expect(view.subscription_id).toBe(subscription.data.subscription_id);

    // The subscriber asks to stop at the period's end: a PUT, with an Idempotency-Key of its own.
    const id = subscription.data.subscription_id;
    sent.length = 0;
    const ending = await cobro.PUT('/v1/subscriptions/{id}', {
      params: { path: { id } },
      body: { cancel_at_period_end: true, metadata: { order: 'shop-1' } },
    });
    expect(ending).toMatchObject({
      cancel_at_period_end: true,
      status: 'active',
      metadata: { order: 'shop-1' },
    });
    // It ends when the period paid for does, a month or so from now.
    expect(Date.parse(String(ending.cancel_at))).toBeGreaterThan(Date.now() + 27 * 86_400_000);
    expect(sent[0]?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    const updated = await delivered(
      secret,
      '/shop',
      'subscription.updated',
      (event) => event.data.object.subscription_id === id,
    );
    // Typed: what moved, with its former value.
    expect(updated.event.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
  });

  it('paging walks every page of a numbered list (Envelope A and B), one request a page', async () => {
    const { cobro, sent } = clientOf(merchant);
    const created: string[] = [];
    for (const name of ['Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5']) {
      const plan = await cobro.POST('/v1/plans/', {
        body: { name, currency: 'EUR', amount: '3.00', interval: 'year', interval_count: 1 },
      });
      created.push(plan.data.id);
    }
    sent.length = 0;
    const listed: string[] = [];
    for await (const plan of cobro.paginate('/v1/plans/', { query: { page_size: 2, interval: 'year' } })) {
      listed.push(plan.key);
      expect(plan.information.interval).toBe('year');
    }
    // Newest first, each once, over three pages of two.
    expect(listed).toEqual([...created].reverse());
    expect(sent.map((request) => new URL(request.url).searchParams.get('page'))).toEqual(['1', '2', '3']);

    // Envelope B (next and previous links): the customers, one a page.
    for (const name of ['Grace', 'Alan']) {
      await cobro.POST('/v1/customers/', {
        body: { first_name: name, last_name: 'Paged', email: `${name}-${Date.now()}@example.com` },
      });
    }
    const firstPage = await cobro.GET('/v1/customers/', { params: { query: { page: 1, page_size: 100 } } });
    // Asked for a page, the customer list answers Envelope B (its search view is a bare array).
    if (Array.isArray(firstPage)) throw new Error('the customer list answered its search view');
    const customers = firstPage;
    sent.length = 0;
    const names: string[] = [];
    for await (const customer of cobro.paginate('/v1/customers/', { query: { page_size: 1 } })) {
      names.push(customer.first_name);
    }
    expect(names).toHaveLength(customers.count);
    expect(names.slice(0, 2)).toEqual(['Alan', 'Grace']);
    expect(sent).toHaveLength(customers.count);
  });

  it('an error answer is a CobroError with its status and envelope (404, 400)', async () => {
    const { cobro } = clientOf(merchant);
    const missing = await cobro
      .GET('/v1/plans/{id}/', { params: { path: { id: '0b7e6f5a-0000-4000-8000-000000000000' } } })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(CobroError);
    expect(isCobroError(missing, 404)).toBe(true);
    const notFound = missing as CobroError;
    expect(notFound.status).toBe(404);
    expect(notFound.method).toBe('GET');
    expect(notFound.envelope).toMatchObject({ code: 404, type: 'error' });

    // More decimals than the currency takes: 400, type danger, the field named.
    const invalid = await cobro
      .POST('/v1/plans/', {
        body: { name: 'Odd', currency: 'USD', amount: '10.505', interval: 'month', interval_count: 1 },
      })
      .catch((error: unknown) => error);
    expect(isCobroError(invalid, 400)).toBe(true);
    const envelope = (invalid as CobroError).envelope;
    expect(envelope).toMatchObject({ code: 400, type: 'danger' });
    expect((invalid as CobroError).message).toContain('400');

    // An absent charge answers {detail}: no envelope, the body kept as answered.
    const charge = await cobro
      .GET('/v1/charges/{charge_id}/', { params: { path: { charge_id: 'ch_000000000000000000000000' } } })
      .catch((error: unknown) => error);
    expect(isCobroError(charge, 404)).toBe(true);
    expect((charge as CobroError).body).toEqual({ detail: 'Not found.' });
    expect((charge as CobroError).envelope).toBeUndefined();

    // The openapi-fetch client underneath answers the same error as data, without throwing.
    const raw = await cobro.client.GET('/v1/plans/{id}/', {
      params: { path: { id: '0b7e6f5a-0000-4000-8000-000000000000' } },
    });
    expect(raw.response.status).toBe(404);
    expect(raw.error).toMatchObject({ code: 404 });
  });

  it('every POST carries an Idempotency-Key: a fresh one by default, the same key twice makes one payment', async () => {
    const { cobro, sent } = clientOf(merchant);
    const body = {
      amount: '12.00',
      currency: 'USD' as const,
      description: 'Order 7',
      items: ['Mug'],
      return_url: 'https://shop.example/thanks',
    };
    const first = await cobro.POST('/v1/payments/', { body });
    const second = await cobro.POST('/v1/payments/', { body });
    const keys = sent.map((request) => request.headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(2);
    for (const key of keys)
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[0]).not.toBe(keys[1]);
    expect(first.data.id_payment).not.toBe(second.data.id_payment);

    // The caller's key: the second request replays the first answer, so there is one payment.
    const key = `order-8-${Date.now()}`;
    const once = await cobro.client.POST('/v1/payments/', {
      body,
      params: { header: { 'Idempotency-Key': key } },
    });
    const again = await cobro.client.POST('/v1/payments/', {
      body,
      params: { header: { 'Idempotency-Key': key } },
    });
    expect(once.response.status).toBe(202);
    expect(again.response.status).toBe(202);
    expect(again.response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.data?.data.id_payment).toBe(once.data?.data.id_payment);
    expect(sent.slice(2).map((request) => request.headers.get('Idempotency-Key'))).toEqual([key, key]);
    // A GET carries none.
    sent.length = 0;
    await cobro.GET('/v1/payments/{id}', { params: { path: { id: first.data.id_payment } } });
    expect(sent[0]?.headers.has('Idempotency-Key')).toBe(false);
  });

  it('a body of the wrong shape fails the type check, and the server refuses it', async () => {
    const { cobro } = clientOf(merchant);
    const refused = await cobro
      .POST('/v1/plans/', {
        body: {
          name: 'Weekly',
          currency: 'USD',
          amount: '1.00',
          // @ts-expect-error: a plan's interval is month or year; `npm run typecheck` fails if this line type-checks
          interval: 'week',
          interval_count: 1,
        },
      })
      .catch((error: unknown) => error);
    expect(isCobroError(refused, 400)).toBe(true);
    expect((refused as CobroError).envelope?.data?.errors?.map((problem) => problem.field)).toContain(
      'interval',
    );
  });
});

describe("the README's example (shared/client/examples/shop.ts)", () => {
  const merchant = suiteMerchant('client-example');
  const example = join(root, 'shared/client/examples/shop.ts');

  it('runs against the stack: the payment paid on its page is refunded, the plans listed', async () => {
    const child = spawn(process.execPath, [example], {
      cwd: root,
      env: { ...process.env, COBRO_API_URL: apiUrl, COBRO_API_KEY: merchant.account.testKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let paying: Promise<number> | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const page = /^pay order 42 .*: (http\S+)$/m.exec(output)?.[1];
      // The payer opens the page and pays it with an approved card.
      if (page && !paying) paying = submitCard(page).then((answer) => answer.status);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    // The example waits for the payment's webhook: stop it if that never comes.
    const stop = setTimeout(() => child.kill(), 25_000);
    const code = await new Promise<number | null>((exited) => child.once('exit', exited));
    clearTimeout(stop);
    expect(code, output).toBe(0);
    expect(await paying).toBe(303);
    expect(output).toMatch(/^subscription checkout: http\S+\/checkout\/\S+$/m);
    expect(output).toMatch(/^refund \w+: 5\.00 usd$/m);
    expect(output).toMatch(/^plan Gold: 19\.90 USD$/m);
    expect(output).toMatch(/^no such plan: 404 /m);
  });

  it('is shown in the README as it is', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = /\n## From TypeScript: the typed client\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
    // The README's first indented block of the section is the file, indented by four spaces.
    const block = /\n\n( {4}.*\n(?: {4}.*\n|\n)*)/.exec(section)?.[1] ?? '';
    const shown = block
      .split('\n')
      .map((line) => line.replace(/^ {4}/, ''))
      .join('\n')
      .trim();
    expect(shown.length).toBeGreaterThan(1000);
    expect(shown).toBe(readFileSync(example, 'utf8').trim());
  });
});
