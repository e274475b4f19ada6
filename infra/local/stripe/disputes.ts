/**
 * Disputes, made by the control API as a card network would open one: the disputed amount and
 * Stripe's dispute fee leave the balance at once (a balance transaction of type `adjustment`).
 */
import type Stripe from 'stripe';
import { type Context, emit, get, owned } from './context.ts';
import { invalidRequest } from './errors.ts';
import { balanceTransactionObject, disputeObject } from './objects.ts';

/** Stripe's dispute fee, in minor units of the charge's currency (USD 15.00). */
const disputeFee = 1500;

export const disputeReasons = [
  'bank_cannot_process',
  'credit_not_processed',
  'customer_initiated',
  'debit_not_authorized',
  'duplicate',
  'fraudulent',
  'general',
  'incorrect_account_details',
  'insufficient_funds',
  'product_not_received',
  'product_unacceptable',
  'subscription_canceled',
  'unrecognized',
] as const;

/** Opens a dispute on a succeeded charge (or a PaymentIntent's charge): `needs_response`. */
export function openDispute(
  ctx: Context,
  input: { charge?: string; payment_intent?: string; reason?: string; amount?: number },
): Stripe.Dispute {
  let chargeId = input.charge;
  if (chargeId === undefined) {
    if (input.payment_intent === undefined) throw invalidRequest('Give a charge or a payment_intent.');
    const intent = get(ctx, 'paymentIntents', input.payment_intent, 'payment_intent').object;
    if (typeof intent.latest_charge !== 'string' || intent.status !== 'succeeded')
      throw invalidRequest(`PaymentIntent ${intent.id} has no succeeded charge.`, {
        param: 'payment_intent',
      });
    chargeId = intent.latest_charge;
  }
  const charge = get(ctx, 'charges', chargeId, 'charge').object;
  if (charge.status !== 'succeeded')
    throw invalidRequest(`Charge ${charge.id} did not succeed.`, { param: 'charge' });
  if (charge.disputed) throw invalidRequest(`Charge ${charge.id} is already disputed.`, { param: 'charge' });
  const amount = input.amount ?? charge.amount;
  if (amount < 1 || amount > charge.amount)
    throw invalidRequest(`A dispute of ${charge.id} is of 1 to ${charge.amount}.`, { param: 'amount' });
  const transaction = owned(
    ctx,
    balanceTransactionObject(ctx, {
      type: 'adjustment',
      reporting_category: 'dispute',
      amount: -amount,
      fee: disputeFee,
      fee_description: 'Dispute fee',
      currency: charge.currency,
      source: '',
      description: `Chargeback withdrawal for ${charge.id}`,
      status: 'available',
      available_on: ctx.store.now(),
    }),
  );
  const dispute = owned(
    ctx,
    disputeObject(ctx, {
      charge,
      amount,
      reason: input.reason ?? 'general',
      balance_transaction: transaction.object,
    }),
  );
  transaction.object.source = dispute.object.id;
  (dispute.object.balance_transactions[0] as Stripe.BalanceTransaction).source = dispute.object.id;
  ctx.store.add('balanceTransactions', { ...transaction, payout: null });
  ctx.store.add('disputes', dispute);
  charge.disputed = true;
  emit(ctx, 'charge.dispute.created', dispute.object);
  return dispute.object;
}
