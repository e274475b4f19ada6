/** PaymentIntents through the API: made (and confirmed off-session with a saved card), read, listed, searched. */
import type Stripe from 'stripe';
import { type Context, get, owned } from './context.ts';
import { isStripeCurrency, majorUnits, maximumAmount, minimumCharge } from './currencies.ts';
import { invalidRequest } from './errors.ts';
import { page, readPaging, type StripeList } from './lists.ts';
import { paymentIntentObject } from './objects.ts';
import type { Params } from './params.ts';
import { attemptPayment, declineFailure } from './payments.ts';

/** POST /v1/payment_intents. */
export function createPaymentIntent(ctx: Context, params: Params): Stripe.PaymentIntent {
  const amount = params.integer('amount', { required: true, min: 1 }) as number;
  const currency = (params.string('currency', { required: true }) as string).toLowerCase();
  const customerId = params.string('customer');
  const methodId = params.string('payment_method');
  const offSessionText = params.string('off_session');
  const confirm = params.boolean('confirm') ?? false;
  const metadata = params.metadata('metadata') ?? {};
  const description = params.string('description', { max: 1000 }) ?? null;
  const statementDescriptor = params.string('statement_descriptor', { max: 22 }) ?? null;
  const statementDescriptorSuffix = params.string('statement_descriptor_suffix', { max: 22 }) ?? null;
  const setupFutureUsage = (params.string('setup_future_usage', { oneOf: ['on_session', 'off_session'] }) ??
    null) as 'on_session' | 'off_session' | null;
  const receiptEmail = params.string('receipt_email', { max: 800 }) ?? null;
  const methodTypes = params.strings('payment_method_types');
  params.string('capture_method', { oneOf: ['automatic', 'automatic_async'] });
  params.string('confirmation_method', { oneOf: ['automatic', 'manual'] });
  params.string('error_on_requires_action', { oneOf: ['true', 'false'] });
  params.done();

  // off_session is a boolean, or `one_off`/`recurring` (both mean true).
  if (offSessionText !== undefined && !['true', 'false', 'one_off', 'recurring'].includes(offSessionText))
    throw invalidRequest(`Invalid boolean: ${offSessionText}`, {
      code: 'parameter_invalid_boolean',
      param: 'off_session',
    });
  const offSession = offSessionText !== undefined && offSessionText !== 'false';
  if (!isStripeCurrency(currency))
    throw invalidRequest(`Invalid currency: ${currency}.`, {
      code: 'parameter_invalid_string',
      param: 'currency',
    });
  const minimum = minimumCharge(currency);
  if (amount < minimum)
    throw invalidRequest(`Amount must be at least ${majorUnits(minimum, currency)} ${currency}`, {
      code: 'amount_too_small',
      param: 'amount',
    });
  if (amount > maximumAmount)
    throw invalidRequest(`Amount must be no more than ${majorUnits(maximumAmount, currency)} ${currency}`, {
      code: 'amount_too_large',
      param: 'amount',
    });
  if (methodTypes?.some((type) => type !== 'card'))
    throw invalidRequest('The stand-in takes only card payments: payment_method_types must be [card].', {
      param: 'payment_method_types',
    });
  if (offSession && !confirm)
    throw invalidRequest('You may only specify `off_session` when `confirm` is `true`.', {
      param: 'off_session',
    });
  if (customerId !== undefined) get(ctx, 'customers', customerId, 'customer');
  const method = methodId === undefined ? undefined : get(ctx, 'paymentMethods', methodId, 'payment_method');
  if (method) {
    const owner = method.object.customer as string | null;
    if (owner !== null && owner !== customerId)
      throw invalidRequest(
        customerId === undefined
          ? `The payment method \`${method.object.id}\` belongs to the Customer \`${owner}\`. Please include the Customer in the \`customer\` parameter on the PaymentIntent.`
          : `The payment method \`${method.object.id}\` does not belong to the Customer \`${customerId}\`.`,
        { param: 'payment_method' },
      );
    if (owner === null && offSession)
      throw invalidRequest(
        `The payment method \`${method.object.id}\` is not attached to a Customer: attach it to one before using it off-session.`,
        { param: 'payment_method' },
      );
  }
  if (confirm && !method)
    throw invalidRequest(
      "You cannot confirm this PaymentIntent because it's missing a payment method. Update the PaymentIntent with a payment method and then confirm it again.",
      { code: 'payment_intent_unexpected_state' },
    );

  const intent = owned(
    ctx,
    paymentIntentObject(ctx, {
      amount,
      currency,
      customer: customerId ?? null,
      payment_method: method?.object.id ?? null,
      metadata,
      description,
      setup_future_usage: setupFutureUsage,
      statement_descriptor: statementDescriptor,
      statement_descriptor_suffix: statementDescriptorSuffix,
      receipt_email: receiptEmail,
    }),
  );
  ctx.store.add('paymentIntents', intent);
  if (confirm && method) {
    const outcome = attemptPayment(ctx, intent, method, offSession ? 'off_session' : 'on_session');
    if (typeof outcome === 'object') throw declineFailure(intent.object, outcome);
  }
  return intent.object;
}

/** GET /v1/payment_intents. */
export function listPaymentIntents(ctx: Context, params: Params): StripeList<Stripe.PaymentIntent> {
  const customer = params.string('customer');
  const paging = readPaging(params);
  params.done();
  const records = [...ctx.store.collections.paymentIntents.values()].filter(
    (record) => customer === undefined || record.object.customer === customer,
  );
  return page(ctx, records, paging, '/v1/payment_intents');
}

/** One `metadata['key']:'value'` clause (either quote), several joined by AND. */
const clausePattern = /^metadata\[(['"])(.+?)\1\]:(['"])(.*)\3$/;

function parseQuery(query: string): { key: string; value: string }[] {
  const clauses = query.trim().split(/\s+AND\s+/);
  return clauses.map((clause) => {
    const match = clausePattern.exec(clause.trim());
    if (!match?.[2] || match[4] === undefined)
      throw invalidRequest(
        `The stand-in could not parse the search query \`${query}\`: it takes metadata['key']:'value' clauses joined by AND.`,
        { code: 'parameter_invalid_string', param: 'query' },
      );
    return { key: match[2], value: match[4] };
  });
}

export interface SearchResult<T> {
  object: 'search_result';
  data: T[];
  has_more: boolean;
  next_page: string | null;
  url: string;
}

/** GET /v1/payment_intents/search: exact metadata matches, newest first, at once (Stripe's index lags up to a minute). */
export function searchPaymentIntents(ctx: Context, params: Params): SearchResult<Stripe.PaymentIntent> {
  const query = params.string('query', { required: true }) as string;
  const limit = params.integer('limit', { min: 1, max: 100 }) ?? 10;
  const pageToken = params.string('page');
  params.done();
  const clauses = parseQuery(query);
  const from =
    pageToken === undefined ? 0 : Number.parseInt(Buffer.from(pageToken, 'base64url').toString(), 10);
  if (!Number.isSafeInteger(from) || from < 0) throw invalidRequest('Invalid page token.', { param: 'page' });
  const found = [...ctx.store.collections.paymentIntents.values()]
    .filter((record) => record.account === ctx.account.object.id && record.livemode === ctx.livemode)
    .filter((record) => clauses.every(({ key, value }) => record.object.metadata?.[key] === value))
    .sort((a, b) => b.seq - a.seq)
    .map((record) => structuredClone(record.object));
  const hasMore = from + limit < found.length;
  return {
    object: 'search_result',
    data: found.slice(from, from + limit),
    has_more: hasMore,
    next_page: hasMore ? Buffer.from(String(from + limit)).toString('base64url') : null,
    url: '/v1/payment_intents/search',
  };
}
