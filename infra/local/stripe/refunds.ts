/**
 * Refunds of a succeeded charge, whole or in parts. A refund of a 4000000000005126 card's charge
 * (or one a `refuse` fault hits) fails, as Stripe's does: `status: 'failed'`, nothing given back.
 */
import type Stripe from 'stripe';
import { type Context, emit, get, owned } from './context.ts';
import { majorUnits } from './currencies.ts';
import { invalidRequest } from './errors.ts';
import { page, readPaging, type StripeList } from './lists.ts';
import { balanceTransactionObject, refundObject } from './objects.ts';
import type { Params } from './params.ts';
import type { Owned } from './store.ts';

/** POST /v1/refunds. */
export function createRefund(ctx: Context, params: Params): Stripe.Refund {
  const intentId = params.string('payment_intent');
  const chargeId = params.string('charge');
  const amount = params.integer('amount', { min: 1 });
  const reason =
    params.string('reason', { oneOf: ['duplicate', 'fraudulent', 'requested_by_customer'] }) ?? null;
  const metadata = params.metadata('metadata') ?? {};
  params.done();

  if (intentId === undefined && chargeId === undefined)
    throw invalidRequest(
      'One of the following params should be provided for this request: payment_intent or charge.',
      {
        code: 'parameter_missing',
      },
    );
  let charge: Owned<Stripe.Charge>;
  if (intentId !== undefined) {
    const intent = get(ctx, 'paymentIntents', intentId, 'payment_intent').object;
    if (intent.status !== 'succeeded' || typeof intent.latest_charge !== 'string')
      throw invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
        param: 'payment_intent',
      });
    charge = get(ctx, 'charges', intent.latest_charge, 'charge');
    if (chargeId !== undefined && chargeId !== charge.object.id)
      throw invalidRequest(`The charge ${chargeId} does not belong to the PaymentIntent ${intent.id}.`, {
        param: 'charge',
      });
  } else {
    charge = get(ctx, 'charges', chargeId as string, 'charge');
  }
  const paid = charge.object;
  if (paid.status !== 'succeeded')
    throw invalidRequest(`Charge ${paid.id} has not succeeded: there is nothing to refund.`);
  if (paid.disputed)
    throw invalidRequest(`Charge ${paid.id} has been charged back; cannot issue a refund.`, {
      code: 'charge_disputed',
    });
  const remaining = paid.amount - paid.amount_refunded;
  if (remaining <= 0)
    throw invalidRequest(`Charge ${paid.id} has already been refunded.`, { code: 'charge_already_refunded' });
  const refundAmount = amount ?? remaining;
  if (refundAmount > remaining)
    throw invalidRequest(
      `Refund amount (${majorUnits(refundAmount, paid.currency)} ${paid.currency}) is greater than unrefunded amount on charge (${majorUnits(remaining, paid.currency)} ${paid.currency})`,
      { code: 'amount_too_large', param: 'amount' },
    );

  const refund = owned(ctx, refundObject(ctx, { amount: refundAmount, charge: paid, reason, metadata }));
  ctx.store.add('refunds', refund);
  const method = ctx.store.collections.paymentMethods.get(paid.payment_method as string);
  if (ctx.refuse || method?.behaviour === 'refund_fails') {
    emit(ctx, 'refund.created', refund.object);
    Object.assign(refund.object, { status: 'failed', failure_reason: ctx.refuse ? 'declined' : 'unknown' });
    emit(ctx, 'refund.failed', refund.object);
    emit(ctx, 'charge.refund.updated', refund.object);
    return refund.object;
  }
  const transaction = owned(
    ctx,
    balanceTransactionObject(ctx, {
      type: 'refund',
      reporting_category: 'refund',
      amount: -refundAmount,
      fee: 0,
      currency: paid.currency,
      source: refund.object.id,
      description: 'REFUND FOR CHARGE',
      status: 'available',
      available_on: ctx.store.now(),
    }),
  );
  ctx.store.add('balanceTransactions', { ...transaction, payout: null });
  Object.assign(refund.object, { status: 'succeeded', balance_transaction: transaction.object.id });
  paid.amount_refunded += refundAmount;
  paid.refunded = paid.amount_refunded === paid.amount;
  paid.refunds = {
    object: 'list',
    data: [...ctx.store.collections.refunds.values()]
      .filter((record) => record.object.charge === paid.id)
      .sort((a, b) => b.seq - a.seq)
      .map((record) => structuredClone(record.object)),
    has_more: false,
    url: `/v1/charges/${paid.id}/refunds`,
  };
  emit(ctx, 'refund.created', refund.object);
  emit(ctx, 'charge.refunded', paid);
  return refund.object;
}

/** GET /v1/refunds. */
export function listRefunds(ctx: Context, params: Params): StripeList<Stripe.Refund> {
  const intent = params.string('payment_intent');
  const charge = params.string('charge');
  const paging = readPaging(params);
  params.done();
  const records = [...ctx.store.collections.refunds.values()].filter(
    (record) =>
      (intent === undefined || record.object.payment_intent === intent) &&
      (charge === undefined || record.object.charge === charge),
  );
  return page(ctx, records, paging, '/v1/refunds');
}
