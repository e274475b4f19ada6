/**
 * Payouts: the control API pays out, at once, every balance transaction of an account and mode not
 * yet paid out (Stripe does it on the account's schedule); the API reads them and what each settled.
 */
import type Stripe from 'stripe';
import { type Context, emit, get, owned } from './context.ts';
import { invalidRequest } from './errors.ts';
import { page, readPaging, type StripeList } from './lists.ts';
import { balanceTransactionObject, payoutObject } from './objects.ts';
import type { Params } from './params.ts';

/**
 * Pays out the balance transactions of `currency` (the one currency with any, when not given):
 * one paid payout of the sum of their nets, linked to them and to its own `payout` transaction.
 */
export function payOut(ctx: Context, currency?: string): Stripe.Payout {
  const unpaid = [...ctx.store.collections.balanceTransactions.values()].filter(
    (record) =>
      record.account === ctx.account.object.id &&
      record.livemode === ctx.livemode &&
      record.payout === null &&
      (currency === undefined || record.object.currency === currency),
  );
  const currencies = [...new Set(unpaid.map((record) => record.object.currency))];
  if (currencies.length === 0)
    throw invalidRequest('There is nothing to pay out.', { code: 'balance_insufficient' });
  if (currencies.length > 1)
    throw invalidRequest(`Balances in ${currencies.join(', ')} are due: name the currency to pay out.`, {
      param: 'currency',
    });
  const payoutCurrency = currencies[0] as string;
  const amount = unpaid.reduce((sum, record) => sum + record.object.net, 0);
  if (amount <= 0)
    throw invalidRequest(`The ${payoutCurrency} balance is ${amount}: there is nothing to pay out.`, {
      code: 'balance_insufficient',
    });
  const transaction = owned(
    ctx,
    balanceTransactionObject(ctx, {
      type: 'payout',
      reporting_category: 'payout',
      amount: -amount,
      fee: 0,
      currency: payoutCurrency,
      source: '',
      description: 'STRIPE PAYOUT',
      status: 'available',
      available_on: ctx.store.now(),
    }),
  );
  const payout = owned(
    ctx,
    payoutObject(ctx, { amount, currency: payoutCurrency, balance_transaction: transaction.object.id }),
  );
  transaction.object.source = payout.object.id;
  ctx.store.add('balanceTransactions', { ...transaction, payout: payout.object.id });
  ctx.store.add('payouts', payout);
  for (const record of unpaid) {
    record.payout = payout.object.id;
    // What is paid out was available first.
    record.object.status = 'available';
  }
  emit(ctx, 'payout.created', payout.object);
  payout.object.status = 'paid';
  emit(ctx, 'payout.paid', payout.object);
  return payout.object;
}

/** GET /v1/payouts. */
export function listPayouts(ctx: Context, params: Params): StripeList<Stripe.Payout> {
  const status = params.string('status');
  const paging = readPaging(params);
  params.done();
  const records = [...ctx.store.collections.payouts.values()].filter(
    (record) => status === undefined || record.object.status === status,
  );
  return page(ctx, records, paging, '/v1/payouts');
}

/** GET /v1/balance_transactions (`payout=po_…`: what that payout settled, its own transaction included). */
export function listBalanceTransactions(ctx: Context, params: Params): StripeList<Stripe.BalanceTransaction> {
  const payout = params.string('payout');
  const type = params.string('type');
  const source = params.string('source');
  const currency = params.string('currency');
  const paging = readPaging(params);
  params.done();
  if (payout !== undefined) get(ctx, 'payouts', payout, 'payout');
  const records = [...ctx.store.collections.balanceTransactions.values()].filter(
    (record) =>
      (payout === undefined || record.payout === payout) &&
      (type === undefined || record.object.type === type) &&
      (source === undefined || record.object.source === source) &&
      (currency === undefined || record.object.currency === currency),
  );
  return page(ctx, records, paging, '/v1/balance_transactions');
}
