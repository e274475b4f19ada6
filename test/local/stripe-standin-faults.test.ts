/**
 * The Stripe stand-in (infra/local/stripe), driven as cobro's Stripe connector drives Stripe, with the
 * real `stripe` package pointed at it (stripe-standin-harness.ts): each fault (down, error500, lose,
 * slow, refuse) as the client sees it, for the account it names. Nothing here needs the cobro stack
 * that vitest's global setup starts.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  control,
  failure,
  type Json,
  merchant,
  paidIntent,
  pay,
  paymentSession,
  savedCard,
  useStandIn,
} from './stripe-standin-harness.ts';

useStandIn();

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
