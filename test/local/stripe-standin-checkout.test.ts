/**
 * The Stripe stand-in (infra/local/stripe), driven as cobro's Stripe connector drives Stripe, with the
 * real `stripe` package pointed at it (stripe-standin-harness.ts): its accounts and keys, Stripe's
 * bracket-notation parameters, and Checkout Sessions: made, refused, paid through the control API and
 * through the payer's page, declined, and expired (by call and by time). Nothing here needs the cobro
 * stack that vitest's global setup starts.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { startStripeStandIn } from '../../infra/local/stripe/stand-in.ts';
import { startReceiver } from '../support/receiver.ts';
import {
  client,
  control,
  controlToken,
  eventsOf,
  failure,
  inAnHour,
  type Json,
  merchant,
  paidIntent,
  pay,
  paymentSession,
  standIn,
  useStandIn,
} from './stripe-standin-harness.ts';

useStandIn();

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
