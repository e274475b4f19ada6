/**
 * The Stripe stand-in (infra/local/stripe), driven as cobro's Stripe connector drives Stripe, with the
 * real `stripe` package pointed at it (stripe-standin-harness.ts): refunds (in parts, too large,
 * failing), payouts read back through balance_transactions?payout=, and disputes. Nothing here needs
 * the cobro stack that vitest's global setup starts.
 */
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { control, eventsOf, failure, merchant, paidIntent, useStandIn } from './stripe-standin-harness.ts';

useStandIn();

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
