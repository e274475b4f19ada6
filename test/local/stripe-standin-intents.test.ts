/**
 * The Stripe stand-in (infra/local/stripe), driven as cobro's Stripe connector drives Stripe, with the
 * real `stripe` package pointed at it (stripe-standin-harness.ts): cards saved in setup mode and
 * charged off-session (declines, authentication required), idempotent replays and mismatches, and
 * PaymentIntents found by metadata and listed by created range. Nothing here needs the cobro stack that
 * vitest's global setup starts.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  eventsOf,
  failure,
  merchant,
  paidIntent,
  pay,
  paymentSession,
  savedCard,
  useStandIn,
} from './stripe-standin-harness.ts';

useStandIn();

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
