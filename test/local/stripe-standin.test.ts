/**
 * The Stripe stand-in (infra/local/stripe), driven as cobro's Stripe connector drives Stripe: with
 * the real `stripe` package pointed at it. Each test starts what it needs itself; nothing here
 * needs the cobro stack that vitest's global setup starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeStandIn, startStripeStandIn } from '../../infra/local/stripe/stand-in.ts';
import { startReceiver } from '../support/receiver.ts';

const controlToken = 'standin-test-control-token';
const stateDir = mkdtempSync(join(tmpdir(), 'stripe-standin-'));
let standIn: StripeStandIn;

beforeAll(async () => {
  standIn = await startStripeStandIn({
    port: 0,
    controlToken,
    stateFile: join(stateDir, 'stripe.json'),
    webhookRetryDelaysMs: [50, 100, 200],
  });
});

afterAll(async () => {
  await standIn?.stop();
  rmSync(stateDir, { recursive: true, force: true });
});

// biome-ignore lint/suspicious/noExplicitAny: control answers are read by field in assertions
type Json = Record<string, any>;

async function control(method: string, path: string, body?: unknown, at = standIn) {
  const response = await fetch(`${at.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${controlToken}`, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

interface Merchant {
  id: string;
  keys: { test_key: string; live_key: string; restricted_test_key: string; restricted_live_key: string };
  test: Stripe;
  live: Stripe;
}

function client(key: string, at = standIn): Stripe {
  return new Stripe(key, {
    host: '127.0.0.1',
    port: Number(new URL(at.url).port),
    protocol: 'http',
    maxNetworkRetries: 0,
  });
}

async function merchant(displayName = 'Tienda Uno', at = standIn): Promise<Merchant> {
  const made = await control(
    'POST',
    '/_standin/accounts',
    { display_name: displayName, email: 'owner@tienda.example' },
    at,
  );
  expect(made.status).toBe(200);
  const keys = made.body as Merchant['keys'] & { id: string };
  return { id: keys.id, keys, test: client(keys.test_key, at), live: client(keys.live_key, at) };
}

/** The error a promise rejects with (failing the test if it resolves). */
async function failure(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (error) {
    return error as Stripe.errors.StripeError;
  }
  throw new Error('expected a rejection');
}

const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

function paymentSession(stripe: Stripe, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  return stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [
      { price_data: { currency: 'usd', unit_amount: 1000, product_data: { name: 'Taza' } }, quantity: 1 },
    ],
    success_url: 'https://shop.example/done?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'https://shop.example/cart',
    ...extra,
  });
}

async function pay(sessionId: string, card: string, extra: Json = {}) {
  return control('POST', `/_standin/checkout/sessions/${sessionId}/pay`, { card, ...extra });
}

/** A card saved in a setup-mode session: its customer and payment method. */
async function savedCard(stripe: Stripe, card: string) {
  const session = await stripe.checkout.sessions.create({
    mode: 'setup',
    currency: 'usd',
    success_url: 'https://shop.example/saved',
  });
  expect((await pay(session.id, card, { email: 'payer@example.com', name: 'Ana Pérez' })).body.status).toBe(
    'complete',
  );
  const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ['setup_intent'] });
  const intent = done.setup_intent as Stripe.SetupIntent;
  return { customer: intent.customer as string, paymentMethod: intent.payment_method as string };
}

/** A PaymentIntent paid on Checkout with `card`. */
async function paidIntent(stripe: Stripe, amount = 1000, card = '4242424242424242'): Promise<string> {
  const session = await paymentSession(stripe, {
    line_items: [
      { price_data: { currency: 'usd', unit_amount: amount, product_data: { name: 'Plan' } }, quantity: 1 },
    ],
  });
  expect((await pay(session.id, card)).body.status).toBe('complete');
  return (await stripe.checkout.sessions.retrieve(session.id)).payment_intent as string;
}

async function eventsOf(stripe: Stripe, type: string): Promise<Stripe.Event[]> {
  return (await stripe.events.list({ type, limit: 100 })).data;
}

describe('accounts and keys', () => {
  it('answers the account to each of its keys, and 401 with the key masked to a wrong one', async () => {
    const shop = await merchant('Café Azul');
    const { test_key, live_key, restricted_test_key, restricted_live_key } = shop.keys;
    for (const key of [test_key, live_key, restricted_test_key, restricted_live_key]) {
      const account = await client(key).accounts.retrieveCurrent();
      expect(account.id).toBe(shop.id);
      expect(account.charges_enabled).toBe(true);
      expect(account.settings?.dashboard.display_name).toBe('Café Azul');
      expect(account.business_profile?.name).toBe('Café Azul');
      expect(account.email).toBe('owner@tienda.example');
    }
    const wrong = await failure(client('sk_test_notarealkeyabcd').accounts.retrieveCurrent());
    expect(wrong).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.message).toBe('Invalid API Key provided: sk_test_****abcd');
    const none = await fetch(`${standIn.url}/v1/account`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as Json).error.type).toBe('invalid_request_error');
  });

  it("keeps each mode's objects from the other mode's keys", async () => {
    const shop = await merchant();
    const customer = await shop.test.customers.create({ email: 'a@example.com', name: 'Ana' });
    expect(customer.id).toMatch(/^cus_/);
    expect(customer.livemode).toBe(false);
    expect((await client(shop.keys.restricted_test_key).customers.retrieve(customer.id)).id).toBe(
      customer.id,
    );
    const hidden = await failure(shop.live.customers.retrieve(customer.id));
    expect(hidden).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.code).toBe('resource_missing');
    expect(hidden.message).toBe(`No such customer: '${customer.id}'`);
    const session = await paymentSession(shop.live);
    expect(session.id).toMatch(/^cs_live_/);
    expect(session.livemode).toBe(true);
    expect((await failure(shop.test.checkout.sessions.retrieve(session.id))).statusCode).toBe(404);
    const other = await merchant('Otra');
    expect((await failure(other.test.customers.retrieve(customer.id))).statusCode).toBe(404);
  });
});

describe('parameters', () => {
  it('reads bracket notation as Stripe does, expand[] and expand[0] alike, and refuses a clash', async () => {
    const shop = await merchant();
    const intent = await paidIntent(shop.test);
    const headers = { Authorization: `Bearer ${shop.keys.test_key}` };
    for (const query of ['expand[]=latest_charge', 'expand[0]=latest_charge', 'expand=latest_charge']) {
      const read = (await (
        await fetch(`${standIn.url}/v1/payment_intents/${intent}?${query}`, { headers })
      ).json()) as Json;
      expect(read.latest_charge.object).toBe('charge');
    }
    const made = await fetch(`${standIn.url}/v1/customers`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=a%40example.com&metadata[cobro_customer]=cus_1&metadata[note]=a+b%26c',
    });
    expect(((await made.json()) as Json).metadata).toEqual({ cobro_customer: 'cus_1', note: 'a b&c' });
    const clash = await fetch(`${standIn.url}/v1/customers`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'metadata=x&metadata[a]=1',
    });
    expect(clash.status).toBe(400);
    expect(((await clash.json()) as Json).error.type).toBe('invalid_request_error');
    const deep = await failure(
      shop.test.paymentIntents.retrieve(intent, { expand: ['latest_charge.nothing'] }),
    );
    expect(deep.message).toBe('This property cannot be expanded (latest_charge.nothing).');
  });
});

describe('Checkout Sessions', () => {
  it('makes an open session of what the connector sends, nested parameters included', async () => {
    const shop = await merchant();
    const expiresAt = inAnHour();
    const session = await paymentSession(shop.test, {
      customer_email: 'payer@example.com',
      customer_creation: 'always',
      payment_intent_data: {
        metadata: { cobro_attempt: 'att_1' },
        description: 'Order 1',
        statement_descriptor_suffix: 'ORDER 1',
      },
      metadata: { cobro_checkout: 'chk_1' },
      client_reference_id: 'ref_1',
      expires_at: expiresAt,
      locale: 'es',
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      url: `${standIn.url}/pay/${session.id}`,
      amount_total: 1000,
      currency: 'usd',
      mode: 'payment',
      customer: null,
      customer_email: 'payer@example.com',
      customer_details: null,
      payment_intent: null,
      setup_intent: null,
      metadata: { cobro_checkout: 'chk_1' },
      expires_at: expiresAt,
      livemode: false,
      success_url: 'https://shop.example/done?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://shop.example/cart',
      client_reference_id: 'ref_1',
      locale: 'es',
    });
    // A field the stand-in does not set keeps the shape of Stripe's published example.
    expect(session.automatic_tax).toMatchObject({ enabled: false });
    expect(session.payment_method_types).toEqual(['card']);
  });

  it("refuses what Stripe refuses, with Stripe's codes", async () => {
    const shop = await merchant();
    const missing = await failure(
      shop.test.checkout.sessions.create({ mode: 'payment', success_url: 'https://x.example' }),
    );
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing.code).toBe('parameter_missing');
    expect(missing.param).toBe('line_items');
    const zero = await failure(
      paymentSession(shop.test, {
        line_items: [
          { price_data: { currency: 'usd', unit_amount: 0, product_data: { name: 'x' } }, quantity: 1 },
        ],
      }),
    );
    expect(zero.code).toBe('parameter_invalid_integer');
    expect(zero.param).toBe('line_items[0][price_data][unit_amount]');
    const currency = await failure(
      paymentSession(shop.test, {
        line_items: [
          { price_data: { currency: 'xyz', unit_amount: 100, product_data: { name: 'x' } }, quantity: 1 },
        ],
      }),
    );
    expect(currency.param).toBe('line_items[0][price_data][currency]');
    const soon = await failure(
      paymentSession(shop.test, { expires_at: Math.floor(Date.now() / 1000) + 600 }),
    );
    expect(soon.param).toBe('expires_at');
    const late = await failure(
      paymentSession(shop.test, { expires_at: Math.floor(Date.now() / 1000) + 90_000 }),
    );
    expect(late.param).toBe('expires_at');
    const unknown = await failure(
      paymentSession(shop.test, { bogus_param: 'x' } as unknown as Stripe.Checkout.SessionCreateParams),
    );
    expect(unknown.code).toBe('parameter_unknown');
    expect(unknown.param).toBe('bogus_param');
    const nobody = await failure(paymentSession(shop.test, { customer: 'cus_nobody' }));
    expect(nobody.statusCode).toBe(400);
    expect(nobody.code).toBe('resource_missing');
    expect(nobody.param).toBe('customer');
    const absent = await failure(shop.test.checkout.sessions.retrieve('cs_test_nothing'));
    expect(absent.statusCode).toBe(404);
    expect(absent.message).toBe("No such checkout.session: 'cs_test_nothing'");
    expect((await shop.test.checkout.sessions.list()).data).toEqual([]);
  });

  it('is paid through the control API, and read back with expands', async () => {
    const shop = await merchant('Librería Sol');
    const session = await paymentSession(shop.test, {
      customer_creation: 'always',
      payment_intent_data: { metadata: { cobro_attempt: 'att_paid' }, description: 'Order 7' },
    });
    const paid = await pay(session.id, '4242 4242 4242 4242', {
      email: 'ana@example.com',
      name: 'Ana Pérez',
    });
    expect(paid).toEqual({
      status: 200,
      body: { status: 'complete', redirect: `https://shop.example/done?session=${session.id}` },
    });
    const done = await shop.test.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent.latest_charge', 'payment_intent.payment_method', 'customer'],
    });
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      url: null,
      customer_details: { email: 'ana@example.com', name: 'Ana Pérez' },
    });
    const customer = done.customer as Stripe.Customer;
    expect(customer).toMatchObject({ object: 'customer', email: 'ana@example.com', name: 'Ana Pérez' });
    const intent = done.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({
      object: 'payment_intent',
      status: 'succeeded',
      amount: 1000,
      amount_received: 1000,
      currency: 'usd',
      customer: customer.id,
      metadata: { cobro_attempt: 'att_paid' },
      description: 'Order 7',
      last_payment_error: null,
    });
    const method = intent.payment_method as Stripe.PaymentMethod;
    expect(method.id).toMatch(/^pm_/);
    expect(method.card).toMatchObject({ brand: 'visa', last4: '4242', country: 'US', funding: 'credit' });
    // Paid without setup_future_usage: the card is not saved to the customer.
    expect(method.customer).toBeNull();
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({
      paid: true,
      status: 'succeeded',
      amount: 1000,
      payment_intent: intent.id,
      payment_method: method.id,
      payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } },
    });
    const charged = await shop.test.charges.retrieve(charge.id, { expand: ['balance_transaction'] });
    const transaction = charged.balance_transaction as Stripe.BalanceTransaction;
    expect(transaction).toMatchObject({
      type: 'charge',
      source: charge.id,
      amount: 1000,
      fee: 59,
      net: 941,
      status: 'pending',
      available_on: transaction.created + 2 * 86_400,
    });
    const events = await shop.test.events.list({ limit: 100 });
    expect(events.data.map((event) => event.type)).toEqual([
      'checkout.session.completed',
      'payment_intent.succeeded',
      'charge.succeeded',
    ]);
    const completed = events.data[0] as Stripe.CheckoutSessionCompletedEvent;
    expect(completed.data.object.id).toBe(session.id);
    expect(completed.data.object.status).toBe('complete');
    expect((await shop.test.events.retrieve(completed.id)).id).toBe(completed.id);
    expect((await failure(shop.live.events.retrieve(completed.id))).statusCode).toBe(404);
  });

  it('shows a payer the Checkout page, escaped, and takes its form to the success URL', async () => {
    const shop = await merchant('Tienda <b>&</b> Co');
    const receiver = await startReceiver();
    const session = await paymentSession(shop.test, {
      line_items: [
        {
          price_data: {
            currency: 'usd',
            unit_amount: 1250,
            product_data: { name: '<script>alert(1)</script>' },
          },
          quantity: 2,
        },
      ],
      customer_email: 'fixed@example.com',
      success_url: `${receiver.url}/thanks?session={CHECKOUT_SESSION_ID}`,
      cancel_url: `${receiver.url}/cart?a=1&b="2"`,
    });
    const shown = await fetch(session.url as string);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toMatch(/^text\/html/);
    const text = await shown.text();
    expect(text).toContain('<html lang="en">');
    expect(text).toContain('Stripe stand-in: test double, no real money moves');
    expect(text).toContain('Tienda &lt;b&gt;&amp;&lt;/b&gt; Co');
    expect(text).toContain('USD 25.00');
    expect(text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).not.toContain('<script>');
    expect(text).not.toContain('<b>');
    for (const id of ['email', 'name', 'card_number', 'expiry', 'cvc']) {
      expect(text).toContain(`<label for="${id}">`);
      expect(text).toContain(`id="${id}"`);
    }
    expect(text).toMatch(/<input id="email"[^>]*value="fixed@example.com" readonly>/);
    expect(text).toContain('MM / YY');
    expect(text).toContain('<button type="submit">Pay</button>');
    expect(text).toContain(`<a href="${receiver.url}/cart?a=1&amp;b=&quot;2&quot;">Back</a>`);

    const posted = await fetch(session.url as string, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: 'fixed@example.com',
        name: 'Ana Pérez',
        card_number: '5555 5555 5555 4444',
        expiry: '12 / 34',
        cvc: '123',
      }),
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`${receiver.url}/thanks?session=${session.id}`);
    const followed = await fetch(posted.headers.get('location') as string);
    expect(followed.status).toBe(200);
    expect(receiver.received.map((request) => request.path)).toContain(`/thanks?session=${session.id}`);
    const done = await shop.test.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent.payment_method'],
    });
    expect(done.status).toBe('complete');
    expect(done.amount_total).toBe(2500);
    const method = (done.payment_intent as Stripe.PaymentIntent).payment_method as Stripe.PaymentMethod;
    expect(method.card).toMatchObject({ brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2034 });
    const closed = await (await fetch(session.url as string)).text();
    expect(closed).toContain('This payment is complete.');
    expect(closed).not.toContain('<form');
  });

  it('keeps a declined session open, with the decline on its PaymentIntent, until a card goes through', async () => {
    const shop = await merchant();
    const session = await paymentSession(shop.test, {
      payment_intent_data: { metadata: { cobro_attempt: 'att_d' } },
    });
    const page = await fetch(session.url as string, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: 'payer@example.com',
        name: 'Ana',
        card_number: '4000000000000002',
        expiry: '01/40',
        cvc: '123',
      }),
      redirect: 'manual',
    });
    expect(page.status).toBe(402);
    const text = await page.text();
    expect(text).toContain('Your card was declined.');
    expect(text).toContain('<form');
    expect(text).toMatch(/<input id="email"[^>]*value="payer@example.com"/);
    const open = await shop.test.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
    expect(open.status).toBe('open');
    const intent = open.payment_intent as Stripe.PaymentIntent;
    expect(intent.status).toBe('requires_payment_method');
    expect(intent.metadata).toEqual({ cobro_attempt: 'att_d' });
    expect(intent.last_payment_error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'generic_decline',
      message: 'Your card was declined.',
    });
    expect(
      (await eventsOf(shop.test, 'payment_intent.payment_failed')).map(
        (e) => (e.data.object as { id: string }).id,
      ),
    ).toEqual([intent.id]);

    for (const [card, code, declineCode, message] of [
      ['4000000000009995', 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.'],
      ['4000000000000069', 'expired_card', 'expired_card', 'Your card has expired.'],
      ['4000000000000127', 'incorrect_cvc', 'incorrect_cvc', "Your card's security code is incorrect."],
      ['4000000000000341', 'card_declined', 'generic_decline', 'Your card was declined.'],
    ] as const) {
      const declined = await pay(session.id, card);
      expect(declined.status).toBe(402);
      expect(declined.body).toEqual({
        status: 'open',
        error: { type: 'card_error', code, decline_code: declineCode, message },
      });
    }
    const wrongNumber = await pay(session.id, '4111111111111112');
    expect(wrongNumber.body.error).toMatchObject({
      code: 'incorrect_number',
      message: 'Your card number is incorrect.',
    });
    expect((await pay(session.id, '4242424242424242')).body.status).toBe('complete');
    const paid = await shop.test.paymentIntents.retrieve(intent.id);
    expect(paid.status).toBe('succeeded');
    expect(paid.last_payment_error).toBeNull();
    expect((await shop.test.checkout.sessions.retrieve(session.id)).payment_intent).toBe(intent.id);
  });
});

describe('saved cards charged off-session', () => {
  it('saves a card in setup mode and charges it off-session', async () => {
    const shop = await merchant();
    const session = await shop.test.checkout.sessions.create({
      mode: 'setup',
      currency: 'usd',
      setup_intent_data: { metadata: { cobro_subscription: 'sub_1' } },
      success_url: 'https://shop.example/saved?s={CHECKOUT_SESSION_ID}',
    });
    expect(session.amount_total).toBeNull();
    const page = await (await fetch(session.url as string)).text();
    expect(page).toContain('Save your card');
    expect(page).toContain('<button type="submit">Save card</button>');
    expect(
      (await pay(session.id, '4242424242424242', { email: 'sub@example.com', name: 'Sub Scriber' })).body,
    ).toEqual({
      status: 'complete',
      redirect: `https://shop.example/saved?s=${session.id}`,
    });
    const done = await shop.test.checkout.sessions.retrieve(session.id, {
      expand: ['setup_intent.payment_method'],
    });
    expect(done).toMatchObject({
      status: 'complete',
      payment_status: 'no_payment_required',
      payment_intent: null,
    });
    const intent = done.setup_intent as Stripe.SetupIntent;
    expect(intent).toMatchObject({
      status: 'succeeded',
      usage: 'off_session',
      metadata: { cobro_subscription: 'sub_1' },
    });
    expect(intent.id).toMatch(/^seti_/);
    const method = intent.payment_method as Stripe.PaymentMethod;
    expect(method.customer).toBe(intent.customer);
    expect(done.customer).toBe(intent.customer);
    expect((await shop.test.customers.retrieve(intent.customer as string)) as Stripe.Customer).toMatchObject({
      email: 'sub@example.com',
    });
    expect((await shop.test.setupIntents.retrieve(intent.id)).payment_method).toBe(method.id);
    expect((await eventsOf(shop.test, 'setup_intent.succeeded')).length).toBe(1);

    const renewal = await shop.test.paymentIntents.create({
      amount: 2500,
      currency: 'usd',
      customer: intent.customer as string,
      payment_method: method.id,
      off_session: true,
      confirm: true,
      metadata: { cobro_attempt: 'att_r1' },
      description: 'Renewal',
      statement_descriptor_suffix: 'RENEWAL',
    });
    expect(renewal).toMatchObject({
      status: 'succeeded',
      amount: 2500,
      amount_received: 2500,
      payment_method: method.id,
    });
    const charge = await shop.test.charges.retrieve(renewal.latest_charge as string);
    expect(charge).toMatchObject({
      paid: true,
      amount: 2500,
      customer: intent.customer,
      statement_descriptor_suffix: 'RENEWAL',
    });
    expect(
      (await eventsOf(shop.test, 'payment_intent.succeeded')).map(
        (e) => (e.data.object as { id: string }).id,
      ),
    ).toEqual([renewal.id]);
    expect((await eventsOf(shop.test, 'charge.succeeded')).length).toBe(1);

    const stranger = await shop.test.customers.create({ email: 'x@example.com' });
    const notTheirs = await failure(
      shop.test.paymentIntents.create({
        amount: 100,
        currency: 'usd',
        customer: stranger.id,
        payment_method: method.id,
        off_session: true,
        confirm: true,
      }),
    );
    expect(notTheirs.statusCode).toBe(400);
    expect(notTheirs.param).toBe('payment_method');
    const unconfirmed = await shop.test.paymentIntents.create({
      amount: 100,
      currency: 'usd',
      customer: intent.customer as string,
      payment_method: method.id,
    });
    expect(unconfirmed.status).toBe('requires_confirmation');
  });

  it("declines a 4000000000000341 card's off-session charge, and keeps the PaymentIntent", async () => {
    const shop = await merchant();
    const saved = await savedCard(shop.test, '4000000000000341');
    const declined = await failure(
      shop.test.paymentIntents.create({
        amount: 1500,
        currency: 'usd',
        customer: saved.customer,
        payment_method: saved.paymentMethod,
        off_session: true,
        confirm: true,
        metadata: { cobro_attempt: 'att_341' },
      }),
    );
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined.statusCode).toBe(402);
    expect(declined.code).toBe('card_declined');
    expect(declined.decline_code).toBe('generic_decline');
    const intent = declined.payment_intent as Stripe.PaymentIntent;
    expect(intent.status).toBe('requires_payment_method');
    expect(intent.last_payment_error?.decline_code).toBe('generic_decline');
    const kept = await shop.test.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] });
    expect(kept.status).toBe('requires_payment_method');
    expect(kept.metadata).toEqual({ cobro_attempt: 'att_341' });
    expect((kept.latest_charge as Stripe.Charge).status).toBe('failed');
    expect((await eventsOf(shop.test, 'payment_intent.payment_failed')).length).toBe(1);
  });

  it('asks for authentication off-session for a 4000002760003184 card that passed on the page', async () => {
    const shop = await merchant();
    const saved = await savedCard(shop.test, '4000002760003184');
    const declined = await failure(
      shop.test.paymentIntents.create({
        amount: 1500,
        currency: 'usd',
        customer: saved.customer,
        payment_method: saved.paymentMethod,
        off_session: true,
        confirm: true,
      }),
    );
    expect(declined).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(declined.code).toBe('authentication_required');
    expect(declined.decline_code).toBe('authentication_required');
    expect((declined.payment_intent as Stripe.PaymentIntent).status).toBe('requires_payment_method');
  });
});

describe('idempotency', () => {
  it('replays the first answer to the same key and request, and refuses the key with another request', async () => {
    const shop = await merchant();
    const saved = await savedCard(shop.test, '4242424242424242');
    const params: Stripe.PaymentIntentCreateParams = {
      amount: 1200,
      currency: 'usd',
      customer: saved.customer,
      payment_method: saved.paymentMethod,
      off_session: true,
      confirm: true,
    };
    const first = await shop.test.paymentIntents.create(params, { idempotencyKey: 'renewal-1' });
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    const again = await shop.test.paymentIntents.create(params, { idempotencyKey: 'renewal-1' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect((await shop.test.paymentIntents.list()).data.map((intent) => intent.id)).toEqual([first.id]);
    expect((await eventsOf(shop.test, 'payment_intent.succeeded')).length).toBe(1);
    const mismatch = await failure(
      shop.test.paymentIntents.create({ ...params, amount: 1300 }, { idempotencyKey: 'renewal-1' }),
    );
    expect(mismatch).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(mismatch.message).toMatch(
      /^Keys for idempotent requests can only be used with the same parameters/,
    );
    // Another mode's keys are its own: the same key there is a new request.
    const live = await shop.live.customers.create(
      { email: 'l@example.com' },
      { idempotencyKey: 'renewal-1' },
    );
    expect(live.livemode).toBe(true);
  });

  it('replays a decline without a second attempt', async () => {
    const shop = await merchant();
    const saved = await savedCard(shop.test, '4000000000000341');
    const params: Stripe.PaymentIntentCreateParams = {
      amount: 1200,
      currency: 'usd',
      customer: saved.customer,
      payment_method: saved.paymentMethod,
      off_session: true,
      confirm: true,
    };
    const first = await failure(shop.test.paymentIntents.create(params, { idempotencyKey: 'k-decline' }));
    const again = await failure(shop.test.paymentIntents.create(params, { idempotencyKey: 'k-decline' }));
    expect(again).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect((again.payment_intent as Stripe.PaymentIntent).id).toBe(
      (first.payment_intent as Stripe.PaymentIntent).id,
    );
    expect(again.headers?.['idempotent-replayed']).toBe('true');
    expect((await eventsOf(shop.test, 'payment_intent.payment_failed')).length).toBe(1);
  });
});

describe('lookups', () => {
  it('searches PaymentIntents by metadata, one clause or two', async () => {
    const shop = await merchant();
    const saved = await savedCard(shop.test, '4242424242424242');
    const make = (attempt: string, kind: string) =>
      shop.test.paymentIntents.create({
        amount: 700,
        currency: 'usd',
        customer: saved.customer,
        payment_method: saved.paymentMethod,
        off_session: true,
        confirm: true,
        metadata: { cobro_attempt: attempt, kind },
      });
    const one = await make('att_s1', 'renewal');
    const two = await make('att_s2', 'renewal');
    const found = await shop.test.paymentIntents.search({ query: "metadata['cobro_attempt']:'att_s1'" });
    expect(found).toMatchObject({ object: 'search_result', has_more: false, next_page: null });
    expect(found.data.map((intent) => intent.id)).toEqual([one.id]);
    const both = await shop.test.paymentIntents.search({ query: "metadata['kind']:'renewal'" });
    expect(both.data.map((intent) => intent.id)).toEqual([two.id, one.id]);
    const anded = await shop.test.paymentIntents.search({
      query: `metadata["kind"]:"renewal" AND metadata['cobro_attempt']:'att_s2'`,
    });
    expect(anded.data.map((intent) => intent.id)).toEqual([two.id]);
    expect((await shop.live.paymentIntents.search({ query: "metadata['kind']:'renewal'" })).data).toEqual([]);
    const bad = await failure(shop.test.paymentIntents.search({ query: 'amount>100' }));
    expect(bad).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(bad.param).toBe('query');
  });

  it('lists newest first within created ranges, a page at a time', async () => {
    const shop = await merchant();
    const start = Math.floor(Date.now() / 1000);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await paymentSession(shop.test)).id);
    const newest = [...made].reverse();
    const first = await shop.test.checkout.sessions.list({ limit: 2 });
    expect(first.data.map((session) => session.id)).toEqual(newest.slice(0, 2));
    expect(first.has_more).toBe(true);
    const next = await shop.test.checkout.sessions.list({ limit: 2, starting_after: newest[1] as string });
    expect(next.data.map((session) => session.id)).toEqual(newest.slice(2));
    expect(next.has_more).toBe(false);
    const inRange = await shop.test.checkout.sessions.list({ created: { gte: start - 1, lt: start + 3600 } });
    expect(inRange.data.map((session) => session.id)).toEqual(newest);
    expect((await shop.test.checkout.sessions.list({ created: { gte: start + 3600 } })).data).toEqual([]);
    expect((await shop.test.checkout.sessions.list({ created: { lt: start - 1 } })).data).toEqual([]);
    const all = [];
    for await (const session of shop.test.checkout.sessions.list({ limit: 1 })) all.push(session.id);
    expect(all).toEqual(newest);

    const intent = await paidIntent(shop.test);
    const intents = await shop.test.paymentIntents.list({ created: { gte: start - 1 }, limit: 10 });
    expect(intents.data.map((i) => i.id)).toEqual([intent]);
    expect((await shop.test.paymentIntents.list({ customer: 'cus_none' })).data).toEqual([]);
    const bad = await failure(shop.test.checkout.sessions.list({ starting_after: 'cs_test_nothing' }));
    expect(bad.statusCode).toBe(400);
  });
});

describe('refunds', () => {
  it('refunds in parts up to the charge, and no further', async () => {
    const shop = await merchant();
    const intent = await paidIntent(shop.test, 1000);
    const part = await shop.test.refunds.create({
      payment_intent: intent,
      amount: 300,
      reason: 'requested_by_customer',
      metadata: { cobro_refund: 'ref_1' },
    });
    expect(part).toMatchObject({
      object: 'refund',
      status: 'succeeded',
      amount: 300,
      currency: 'usd',
      payment_intent: intent,
      metadata: { cobro_refund: 'ref_1' },
    });
    expect(part.id).toMatch(/^re_/);
    const charge = await shop.test.charges.retrieve(part.charge as string);
    expect(charge).toMatchObject({ amount_refunded: 300, refunded: false });
    const transaction = await shop.test.balanceTransactions.retrieve(part.balance_transaction as string);
    expect(transaction).toMatchObject({ type: 'refund', amount: -300, net: -300, source: part.id });
    const tooMuch = await failure(shop.test.refunds.create({ payment_intent: intent, amount: 800 }));
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch.code).toBe('amount_too_large');
    const rest = await shop.test.refunds.create({ payment_intent: intent });
    expect(rest.amount).toBe(700);
    expect(await shop.test.charges.retrieve(part.charge as string)).toMatchObject({
      amount_refunded: 1000,
      refunded: true,
    });
    const again = await failure(shop.test.refunds.create({ charge: part.charge as string }));
    expect(again.code).toBe('charge_already_refunded');
    expect(
      (await shop.test.refunds.list({ payment_intent: intent })).data.map((refund) => refund.id),
    ).toEqual([rest.id, part.id]);
    expect((await shop.test.refunds.retrieve(part.id)).amount).toBe(300);
    expect((await eventsOf(shop.test, 'refund.created')).length).toBe(2);
    expect((await eventsOf(shop.test, 'charge.refunded')).length).toBe(2);
  });

  it("fails every refund of a 4000000000005126 card's charge", async () => {
    const shop = await merchant();
    const intent = await paidIntent(shop.test, 1000, '4000000000005126');
    const refund = await shop.test.refunds.create({ payment_intent: intent, amount: 400 });
    expect(refund).toMatchObject({ status: 'failed', failure_reason: 'unknown', amount: 400 });
    const charge = await shop.test.charges.retrieve(refund.charge as string);
    expect(charge.amount_refunded).toBe(0);
    expect(
      (await eventsOf(shop.test, 'refund.failed')).map((e) => (e.data.object as { id: string }).id),
    ).toEqual([refund.id]);
    expect((await eventsOf(shop.test, 'charge.refund.updated')).length).toBe(1);
  });
});

describe('expiry', () => {
  it('expires an open session once, and its page then refuses the payer', async () => {
    const shop = await merchant();
    const session = await paymentSession(shop.test);
    const expired = await shop.test.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    const twice = await failure(shop.test.checkout.sessions.expire(session.id));
    expect(twice).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(twice.statusCode).toBe(400);
    expect((await eventsOf(shop.test, 'checkout.session.expired')).length).toBe(1);
    const shown = await (await fetch(session.url as string)).text();
    expect(shown).toContain('This checkout session has expired.');
    expect(shown).not.toContain('<form');
    const paid = await pay(session.id, '4242424242424242');
    expect(paid.status).toBe(400);
    expect(paid.body.status).toBe('expired');
    const posted = await fetch(session.url as string, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: 'a@example.com',
        name: 'A',
        card_number: '4242424242424242',
        expiry: '1/40',
        cvc: '123',
      }),
    });
    expect(posted.status).toBe(400);
    expect(await posted.text()).not.toContain('<form');
    const complete = await paymentSession(shop.test);
    await pay(complete.id, '4242424242424242');
    expect((await failure(shop.test.checkout.sessions.expire(complete.id))).statusCode).toBe(400);
  });

  it('expires a session by itself once its expires_at has passed, cancelling its PaymentIntent', async () => {
    // A stand-in of its own: its clock is moved on.
    const own = await startStripeStandIn({ controlToken });
    try {
      const shop = await merchant('Reloj', own);
      const session = await paymentSession(shop.test, { expires_at: Math.floor(Date.now() / 1000) + 1800 });
      await control(
        'POST',
        `/_standin/checkout/sessions/${session.id}/pay`,
        { card: '4000000000000002' },
        own,
      );
      expect((await shop.test.checkout.sessions.retrieve(session.id)).status).toBe('open');
      const moved = await control('POST', '/_standin/clock', { advance_seconds: 1801 }, own);
      expect(moved.body.now).toBeGreaterThanOrEqual(session.expires_at);
      const read = await shop.test.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
      expect(read.status).toBe('expired');
      expect((read.payment_intent as Stripe.PaymentIntent).status).toBe('canceled');
      expect((await eventsOf(shop.test, 'checkout.session.expired')).length).toBe(1);
    } finally {
      await own.stop();
    }
  });
});

describe('payouts and disputes', () => {
  it('pays out what charges and refunds left, read back through balance_transactions?payout=', async () => {
    const shop = await merchant();
    const first = await paidIntent(shop.test, 1000);
    const second = await paidIntent(shop.test, 2000);
    const refund = await shop.test.refunds.create({ payment_intent: first, amount: 250 });
    const made = await control('POST', '/_standin/payouts', { account: shop.id, livemode: false });
    expect(made.status).toBe(200);
    const payout = made.body as Stripe.Payout;
    // 1000 - 59 + 2000 - 88 - 250
    expect(payout).toMatchObject({ object: 'payout', status: 'paid', amount: 2603, currency: 'usd' });
    expect(payout.id).toMatch(/^po_/);
    const settled = await shop.test.balanceTransactions.list({ payout: payout.id, limit: 100 });
    const charges = await Promise.all(
      [first, second].map(async (id) => (await shop.test.paymentIntents.retrieve(id)).latest_charge),
    );
    expect(settled.data.map((transaction) => [transaction.type, transaction.source]).sort()).toEqual(
      [
        ['charge', charges[0]],
        ['charge', charges[1]],
        ['payout', payout.id],
        ['refund', refund.id],
      ].sort(),
    );
    const net = settled.data.filter((t) => t.type !== 'payout').reduce((sum, t) => sum + t.net, 0);
    expect(net).toBe(payout.amount);
    expect(settled.data.find((t) => t.type === 'payout')?.amount).toBe(-payout.amount);
    expect((await shop.test.payouts.retrieve(payout.id)).status).toBe('paid');
    const listed = await shop.test.payouts.list({ created: { gte: payout.created, lt: payout.created + 1 } });
    expect(listed.data.map((p) => p.id)).toEqual([payout.id]);
    expect((await eventsOf(shop.test, 'payout.created')).length).toBe(1);
    expect((await eventsOf(shop.test, 'payout.paid')).length).toBe(1);
    const nothing = await control('POST', '/_standin/payouts', { account: shop.id, livemode: false });
    expect(nothing.status).toBe(400);
    expect((await shop.live.payouts.list()).data).toEqual([]);
  });

  it('opens a dispute on a charge', async () => {
    const shop = await merchant();
    const intent = await paidIntent(shop.test, 1000);
    const made = await control('POST', '/_standin/disputes', {
      payment_intent: intent,
      reason: 'fraudulent',
    });
    expect(made.status).toBe(200);
    const dispute = await shop.test.disputes.retrieve(made.body.id);
    expect(dispute).toMatchObject({
      status: 'needs_response',
      reason: 'fraudulent',
      amount: 1000,
      payment_intent: intent,
    });
    expect(dispute.id).toMatch(/^dp_/);
    expect((await shop.test.charges.retrieve(dispute.charge as string)).disputed).toBe(true);
    expect((await eventsOf(shop.test, 'charge.dispute.created')).length).toBe(1);
    const refused = await failure(shop.test.refunds.create({ payment_intent: intent }));
    expect(refused.code).toBe('charge_disputed');
  });
});

describe('webhooks', () => {
  it('delivers signed events that stripe.webhooks.constructEvent verifies, retrying a failed delivery', async () => {
    const shop = await merchant();
    const receiver = await startReceiver();
    const endpoint = await shop.test.webhookEndpoints.create({
      url: `${receiver.url}/stripe`,
      enabled_events: ['checkout.session.completed', 'refund.created'],
    });
    expect(endpoint).toMatchObject({ object: 'webhook_endpoint', status: 'enabled', livemode: false });
    expect(endpoint.id).toMatch(/^we_/);
    expect(endpoint.secret).toMatch(/^whsec_/);
    const everything = await shop.live.webhookEndpoints.create({
      url: `${receiver.url}/live`,
      enabled_events: ['*'],
    });
    const listed = await shop.test.webhookEndpoints.list();
    expect(listed.data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(listed.data[0]?.secret).toBeUndefined();

    receiver.answer('/stripe', 500);
    const session = await paymentSession(shop.test);
    await pay(session.id, '4242424242424242');
    const delivered = await receiver.waitFor(
      (r) => r.path === '/stripe' && r.json.type === 'checkout.session.completed',
      2,
    );
    expect(delivered.length).toBe(2);
    const last = delivered[1];
    if (!last) throw new Error('no delivery');
    const event = Stripe.webhooks.constructEvent(
      last.body,
      String(last.headers['stripe-signature']),
      endpoint.secret as string,
    );
    expect(event.type).toBe('checkout.session.completed');
    expect((event.data.object as Stripe.Checkout.Session).id).toBe(session.id);
    expect(event.livemode).toBe(false);
    expect(event.id).toMatch(/^evt_/);
    expect(String(last.headers['stripe-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() =>
      Stripe.webhooks.constructEvent(
        last.body.replace(session.id, 'cs_test_tampered'),
        String(last.headers['stripe-signature']),
        endpoint.secret as string,
      ),
    ).toThrow(Stripe.errors.StripeSignatureVerificationError);
    const refund = await shop.test.refunds.create({
      payment_intent: (await shop.test.checkout.sessions.retrieve(session.id)).payment_intent as string,
    });
    const refunded = await receiver.waitFor((r) => r.path === '/stripe' && r.json.type === 'refund.created');
    expect(refunded.map((r) => r.json.data.object.id)).toEqual([refund.id]);
    // Only the types it asked for, and nothing of the other mode.
    expect(new Set(receiver.received.filter((r) => r.path === '/stripe').map((r) => r.json.type))).toEqual(
      new Set(['checkout.session.completed', 'refund.created']),
    );
    expect(receiver.received.filter((r) => r.path === '/live')).toEqual([]);

    const attempts = await control('GET', `/_standin/deliveries?account=${shop.id}&event=${event.id}`);
    expect(attempts.body.data.map((a: Json) => [a.attempt, a.status, a.type, a.url])).toEqual([
      [1, 500, 'checkout.session.completed', `${receiver.url}/stripe`],
      [2, 200, 'checkout.session.completed', `${receiver.url}/stripe`],
    ]);
    const stored = await shop.test.events.retrieve(event.id);
    expect(stored.pending_webhooks).toBe(0);

    const resent = await control('POST', `/_standin/events/${event.id}/resend`, {});
    expect(resent.body).toEqual({ event: event.id, endpoints: [endpoint.id] });
    const again = await receiver.waitFor((r) => r.path === '/stripe' && r.json.id === event.id, 3);
    expect(again.length).toBe(3);

    const removed = await shop.test.webhookEndpoints.del(endpoint.id);
    expect(removed).toMatchObject({ id: endpoint.id, deleted: true });
    expect((await shop.test.webhookEndpoints.list()).data).toEqual([]);
    expect((await shop.live.webhookEndpoints.list()).data.map((e) => e.id)).toEqual([everything.id]);
  });
});

describe('faults', () => {
  it('down and error500: an API error with nothing done', async () => {
    const shop = await merchant();
    const saved = await savedCard(shop.test, '4242424242424242');
    expect(
      (
        await control('POST', '/_standin/faults', {
          operation: 'payment_intent_create',
          effect: 'down',
          times: 1,
          account: shop.id,
        })
      ).status,
    ).toBe(200);
    const down = await failure(
      shop.test.paymentIntents.create({
        amount: 900,
        currency: 'usd',
        customer: saved.customer,
        payment_method: saved.paymentMethod,
        off_session: true,
        confirm: true,
      }),
    );
    expect(down).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(down.statusCode).toBe(503);
    expect((await shop.test.paymentIntents.list()).data).toEqual([]);
    await control('POST', '/_standin/faults', {
      operation: 'checkout_session_create',
      effect: 'error500',
      times: 1,
    });
    const broken = await failure(paymentSession(shop.test));
    expect(broken).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(broken.statusCode).toBe(500);
    expect((await shop.test.checkout.sessions.list()).data.length).toBe(1); // the setup session only
    expect((await control('GET', '/_standin/faults')).body.faults).toEqual([]);
  });

  it('lose: a connection error, the object made all the same', async () => {
    const shop = await merchant();
    const intent = await paidIntent(shop.test, 1000);
    // stripe-node retries a reset connection once by itself: the fault hits that retry too.
    await control('POST', '/_standin/faults', {
      operation: 'refund_create',
      effect: 'lose',
      times: 2,
      account: shop.id,
    });
    const lost = await failure(shop.test.refunds.create({ payment_intent: intent, amount: 100 }));
    expect(lost).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    const refunds = await shop.test.refunds.list({ payment_intent: intent });
    expect(refunds.data.map((refund) => [refund.amount, refund.status])).toEqual([[100, 'succeeded']]);
    // Lost once only: stripe-node's own retry, same Idempotency-Key, is answered the refund made.
    await control('POST', '/_standin/faults', {
      operation: 'refund_create',
      effect: 'lose',
      times: 1,
      account: shop.id,
    });
    const healed = await shop.test.refunds.create({ payment_intent: intent, amount: 200 });
    expect(healed.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(
      (await shop.test.refunds.list({ payment_intent: intent })).data.map((refund) => refund.amount),
    ).toEqual([200, 100]);
    await control('POST', '/_standin/faults', {
      operation: 'lookup',
      effect: 'lose',
      times: 2,
      account: shop.id,
    });
    expect(await failure(shop.test.paymentIntents.retrieve(intent))).toBeInstanceOf(
      Stripe.errors.StripeConnectionError,
    );
  });

  it('slow: answers after the delay', async () => {
    const shop = await merchant();
    await control('POST', '/_standin/faults', {
      operation: 'lookup',
      effect: 'slow',
      delayMs: 400,
      times: 1,
      account: shop.id,
    });
    const started = performance.now();
    expect((await shop.test.accounts.retrieveCurrent()).id).toBe(shop.id);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    // Spent after its one call.
    const armed = (await control('GET', '/_standin/faults')).body.faults as Json[];
    expect(armed.filter((fault) => fault.account === shop.id)).toEqual([]);
  });

  it('refuse: a declined PaymentIntent and a failed refund, nothing moved', async () => {
    const shop = await merchant();
    const saved = await savedCard(shop.test, '4242424242424242');
    await control('POST', '/_standin/faults', {
      operation: 'payment_intent_create',
      effect: 'refuse',
      times: 1,
      account: shop.id,
    });
    const refused = await failure(
      shop.test.paymentIntents.create({
        amount: 900,
        currency: 'usd',
        customer: saved.customer,
        payment_method: saved.paymentMethod,
        off_session: true,
        confirm: true,
      }),
    );
    expect(refused).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(refused.code).toBe('card_declined');
    expect(refused.decline_code).toBe('processing_error');
    expect((await shop.test.balanceTransactions.list()).data).toEqual([]);
    const intent = await paidIntent(shop.test, 1000);
    await control('POST', '/_standin/faults', {
      operation: 'refund_create',
      effect: 'refuse',
      times: 1,
      account: shop.id,
    });
    const refund = await shop.test.refunds.create({ payment_intent: intent });
    expect(refund.status).toBe('failed');
    expect(
      (await shop.test.paymentIntents.retrieve(intent, { expand: ['latest_charge'] })).latest_charge,
    ).toMatchObject({
      amount_refunded: 0,
    });
    const wrong = await control('POST', '/_standin/faults', { operation: 'lookup', effect: 'refuse' });
    expect(wrong.status).toBe(400);
  });

  it("hits only the account it names, and the payer's page", async () => {
    const shop = await merchant();
    const other = await merchant('Otra');
    await control('POST', '/_standin/faults', {
      operation: 'checkout_pay',
      effect: 'down',
      account: other.id,
    });
    const session = await paymentSession(shop.test);
    expect((await pay(session.id, '4242424242424242')).body.status).toBe('complete');
    const theirs = await paymentSession(other.test);
    const page = await fetch(theirs.url as string);
    expect(page.status).toBe(503);
    expect(await page.text()).not.toContain('<form');
    expect((await pay(theirs.id, '4242424242424242')).status).toBe(503);
    await control('DELETE', `/_standin/faults?account=${other.id}`);
    expect((await pay(theirs.id, '4242424242424242')).body.status).toBe('complete');
  });
});

describe('persistence', () => {
  it('keeps accounts, objects and idempotent answers in its state file across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stripe-standin-state-'));
    const stateFile = join(dir, 'stripe.json');
    try {
      const before = await startStripeStandIn({ controlToken, stateFile });
      const shop = await merchant('Persistente', before);
      const session = await paymentSession(shop.test, {
        payment_intent_data: { metadata: { cobro_attempt: 'att_p' } },
      });
      await control(
        'POST',
        `/_standin/checkout/sessions/${session.id}/pay`,
        { card: '4242424242424242' },
        before,
      );
      const customer = await shop.test.customers.create(
        { email: 'kept@example.com' },
        { idempotencyKey: 'cust-1' },
      );
      const waiting = await paymentSession(shop.test);
      await before.stop();

      const after = await startStripeStandIn({ controlToken, stateFile });
      try {
        const again = client(shop.keys.test_key, after);
        expect((await again.accounts.retrieveCurrent()).id).toBe(shop.id);
        const read = await again.checkout.sessions.retrieve(session.id, { expand: ['payment_intent'] });
        expect(read.status).toBe('complete');
        expect((read.payment_intent as Stripe.PaymentIntent).metadata).toEqual({ cobro_attempt: 'att_p' });
        const replayed = await again.customers.create(
          { email: 'kept@example.com' },
          { idempotencyKey: 'cust-1' },
        );
        expect(replayed.id).toBe(customer.id);
        expect(replayed.lastResponse.headers['idempotent-replayed']).toBe('true');
        expect((await again.events.list({ type: 'checkout.session.completed' })).data.length).toBe(1);
        // An open session's page is where the stand-in listens now.
        const open = await again.checkout.sessions.retrieve(waiting.id);
        expect(open.url).toBe(`${after.url}/pay/${waiting.id}`);
        expect((await fetch(open.url as string)).status).toBe(200);
        expect(
          (await control('GET', '/_standin/accounts', undefined, after)).body.data.map((a: Json) => a.id),
        ).toEqual([shop.id]);
      } finally {
        await after.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
