/**
 * The Stripe connector (docs/design.md#stripe): the acquirer port over one merchant's own Stripe
 * account, through the official `stripe` package. Card data never reaches cobro:
 * - a checkout is a Stripe Checkout Session (`beginRedirect`): the payer pays on Stripe's page and
 *   comes back to cobro's, which reads the session and its PaymentIntent back from Stripe
 *   (`readRedirect`); a trial or a new card is a session in `setup` mode; a card kept for later is
 *   a Stripe customer's payment method (`setup_future_usage: off_session`);
 * - a renewal is an off-session PaymentIntent of that payment method (`chargeStored`); one Stripe
 *   says needs the cardholder (`authentication_required`) is a decline of that reason;
 * - refunds are Stripe refunds.
 * Every call that may move money carries the D15 attempt's key as Stripe's idempotency key, and the
 * key and attempt in the object's metadata (`cobro_key`, `cobro_attempt`): a lookup finds what a
 * lost answer did by that metadata, and reconciliation maps Stripe's objects back to cobro's
 * attempts by it. A call Stripe did not answer (a connection error, a time-out, a 5xx) is
 * AcquirerUnavailable: the outcome is unknown and recovery asks again by key, never with a new one.
 * cobro does not pay out a Stripe charge: Stripe pays out on its own schedule.
 */
import Stripe from 'stripe';
import type { Mode } from '../core/account.ts';
import {
  type Acquirer,
  AcquirerUnavailable,
  type ApprovedCharge,
  type CardBrand,
  type CardSummary,
  type DeclinedCharge,
  type DeclineReason,
  type FoundCharge,
  type LedgerEntry,
  type LookupHints,
  type NotFound,
  type RedirectRequest,
  type RedirectRequired,
  type RefundResult,
  type Settlement,
  stripeTokenPrefix,
} from './acquirer.ts';
import { stripeEventTypes } from './stripe-event-types.ts';

export interface StripeConnectorOptions {
  /** The account's secret or restricted key (`sk_…`/`rk_…`): its prefix says the mode. */
  secretKey: string;
  /** The Stripe account the key opens (`acct_…`): what the cards it saves name. */
  accountId?: string;
  /** The cobro account the Stripe account is connected to: what ledger entries and lookups name. */
  developerId: number;
  mode: Mode;
  /** Where Stripe's API is, when it is not api.stripe.com (the local stand-in). */
  apiUrl?: string;
  /** How long one call may take before its outcome counts as unknown. @default 20000 */
  timeoutMs?: number;
}

/** The metadata cobro writes on every Stripe object that moves money. */
export const stripeMetadata = {
  /** The attempt's acquirer key (its id, or `<id>.<try>`): what a lookup and reconciliation match. */
  key: 'cobro_key',
  /** The attempt's id, so Stripe's own dashboard names cobro's record. */
  attempt: 'cobro_attempt',
  /** The cobro account. */
  account: 'cobro_account',
} as const;

/**
 * How long Stripe's search may take to show an object the API made (Stripe documents under a minute
 * in normal operation; doubled here): finding nothing before that is not an answer.
 */
const searchLagMs = 120_000;

/** The API version cobro's connector is written against: the installed package's. */
const apiVersion = Stripe.API_VERSION;

/** A Stripe client of the connector's key, pointed at `apiUrl` when one is given. */
export function stripeClient(secretKey: string, apiUrl?: string, timeoutMs = 20_000): Stripe {
  const target = apiUrl ? new URL(apiUrl) : undefined;
  return new Stripe(secretKey, {
    apiVersion,
    // cobro decides every retry itself (by the attempt's key): the package sends each call once.
    maxNetworkRetries: 0,
    timeout: timeoutMs,
    appInfo: { name: 'cobro' },
    ...(target
      ? {
          host: target.hostname,
          port: target.port || (target.protocol === 'https:' ? '443' : '80'),
          protocol: target.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Stripe's card brands, as cobro names them. */
const brands: Record<string, CardBrand> = {
  visa: 'visa',
  mastercard: 'mastercard',
  amex: 'amex',
  discover: 'discover',
  jcb: 'jcb',
  unionpay: 'unionpay',
};

const unknownCard: CardSummary = { brand: 'unknown', last4: '0000', expMonth: 1, expYear: 1970, country: '' };

/** What may be kept of a Stripe card: never more than its summary. */
function cardOf(method: Stripe.PaymentMethod | string | null | undefined): CardSummary {
  if (!method || typeof method === 'string' || !method.card) return unknownCard;
  const card = method.card;
  return {
    brand: brands[card.brand] ?? 'unknown',
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
    country: card.country ?? '',
  };
}

/** Stripe's decline codes as cobro's decline reasons. */
export function declineReasonOf(
  code: string | null | undefined,
  declineCode: string | null | undefined,
): DeclineReason {
  const reason = declineCode ?? code ?? '';
  if (code === 'authentication_required' || reason === 'authentication_required')
    return 'authentication_required';
  if (reason === 'insufficient_funds') return 'insufficient_funds';
  if (reason === 'expired_card' || code === 'expired_card') return 'expired_card';
  if (reason === 'incorrect_cvc' || code === 'incorrect_cvc') return 'incorrect_cvc';
  if (reason === 'processing_error' || code === 'processing_error') return 'processing_error';
  return 'generic_decline';
}

/**
 * The card token a saved card is charged by later: the Stripe customer, its payment method, and the
 * Stripe account that holds them (so its renewals go to that account, and no other).
 */
export const stripeCardToken = (customer: string | null, paymentMethod: string, account?: string) =>
  `${stripeTokenPrefix}${customer ?? ''}:${paymentMethod}${account ? `:${account}` : ''}`;

function readCardToken(token: string): { customer: string; paymentMethod: string } {
  const [customer, paymentMethod] = token.slice(stripeTokenPrefix.length).split(':');
  if (!token.startsWith(stripeTokenPrefix) || !customer || !paymentMethod)
    throw new RangeError('not a card saved with Stripe');
  return { customer, paymentMethod };
}

const idOf = (value: { id: string } | string | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** Whether a failed call left its outcome unknown (it may have been done): then only a lookup tells. */
function unanswered(error: unknown): boolean {
  if (error instanceof Stripe.errors.StripeConnectionError) return true;
  if (error instanceof Stripe.errors.StripeAPIError) return true;
  if (error instanceof Stripe.errors.StripeRateLimitError) return false;
  return error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500;
}

/** Whether Stripe answered a request with a refusal (a 4xx of its own): nothing was done. */
function definiteRefusal(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeError &&
    !unanswered(error) &&
    !(error instanceof Stripe.errors.StripeRateLimitError) &&
    (error.statusCode ?? 0) >= 400 &&
    (error.statusCode ?? 0) < 500
  );
}

/** A call to Stripe whose failure without an answer is AcquirerUnavailable. */
async function ask<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (unanswered(error))
      throw new AcquirerUnavailable(`Stripe did not answer ${what}: ${(error as Error).message}`);
    throw error;
  }
}

export function createStripeConnector(options: StripeConnectorOptions): Acquirer {
  const stripe = stripeClient(options.secretKey, options.apiUrl, options.timeoutMs);
  const test = options.mode === 'test';
  const metadataOf = (key: string, attemptId: string) => ({
    [stripeMetadata.key]: key,
    [stripeMetadata.attempt]: attemptId,
    [stripeMetadata.account]: String(options.developerId),
  });
  const attemptOfKey = (key: string) => key.replace(/\.\d+$/, '');

  function approved(
    reference: string,
    method: Stripe.PaymentMethod | string | null,
    customer: string | null,
    payer?: { email: string; name: string },
  ): ApprovedCharge {
    const paymentMethod = idOf(method);
    return {
      status: 'approved',
      acquirerReference: reference,
      card: cardOf(method),
      // Stripe's page ran whatever authentication the card needed; cobro was not part of it.
      threeDSecure: 'not_applicable',
      cardToken: paymentMethod
        ? stripeCardToken(customer, paymentMethod, options.accountId)
        : `${stripeTokenPrefix}:`,
      ...(payer ? { payer } : {}),
    };
  }

  /** What a PaymentIntent says of the charge it is. */
  function paymentOutcome(
    intent: Stripe.PaymentIntent,
    payer?: { email: string; name: string },
  ): FoundCharge {
    const amount = {
      amountMinor: intent.amount_received || intent.amount,
      currency: intent.currency.toUpperCase(),
    };
    if (intent.status === 'succeeded')
      return { ...approved(intent.id, intent.payment_method, idOf(intent.customer), payer), ...amount };
    const error = intent.last_payment_error;
    if (error && intent.status === 'requires_payment_method')
      return {
        status: 'declined',
        declineReason: declineReasonOf(error.code, error.decline_code),
        card: cardOf(error.payment_method),
        ...amount,
      };
    // Processing, or waiting for the payer: not a final answer yet.
    return { status: 'challenge_required', challengeId: intent.id, card: cardOf(intent.payment_method) };
  }

  /** What a Checkout Session says of the checkout it is, read back with what it made. */
  async function sessionOutcome(sessionId: string): Promise<FoundCharge> {
    const session = await ask('a checkout session read', () =>
      stripe.checkout.sessions.retrieve(sessionId, {
        expand: ['payment_intent.payment_method', 'setup_intent.payment_method'],
      }),
    );
    const details = session.customer_details;
    const payer = details?.email ? { email: details.email, name: details.name ?? '' } : undefined;
    const customer = idOf(session.customer);
    const waiting: FoundCharge = { status: 'challenge_required', challengeId: session.id, card: unknownCard };
    // Open: the payer is still on Stripe's page (a decline there leaves it open for another card).
    if (session.status === 'open') return waiting;
    // Expired: nothing can be paid through it any more, and nothing was.
    if (session.status !== 'complete') return { status: 'not_found' };
    if (session.mode === 'setup') {
      const intent = session.setup_intent;
      if (!intent || typeof intent === 'string' || intent.status !== 'succeeded') return waiting;
      return {
        ...approved(intent.id, intent.payment_method, idOf(intent.customer) ?? customer, payer),
        amountMinor: 0,
        currency: (session.currency ?? '').toUpperCase(),
      };
    }
    const intent = session.payment_intent;
    if (!intent || typeof intent === 'string') return waiting;
    const outcome = paymentOutcome(intent, payer);
    // Complete but still processing: Stripe finishes it; asked again later.
    return outcome.status === 'approved' ? outcome : waiting;
  }

  async function expire(sessionId: string): Promise<void> {
    try {
      await ask('a checkout session expiry', () => stripe.checkout.sessions.expire(sessionId));
    } catch (error) {
      // Completed or expired meanwhile: the read that follows says which.
      if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
    }
  }

  /**
   * The PaymentIntent made under `key`, found by its metadata: in the list of the card's customer
   * when the call charged a saved card (a list is read at once), else by Stripe's search, whose index
   * lags the API by up to a minute. So search finding nothing is an answer only once the try is older
   * than that lag (`searchLagMs`); before, the outcome is still unknown.
   */
  async function intentByKey(
    key: string,
    hints: LookupHints,
  ): Promise<Stripe.PaymentIntent | undefined | 'unknown'> {
    const customer = hints.cardToken?.startsWith(stripeTokenPrefix)
      ? readCardToken(hints.cardToken).customer
      : undefined;
    if (customer) {
      const intents = stripe.paymentIntents.list({ customer, limit: 100 });
      for await (const intent of intents) if (intent.metadata[stripeMetadata.key] === key) return intent;
      return undefined;
    }
    const found = await ask('a payment lookup', () =>
      stripe.paymentIntents.search({ query: `metadata['${stripeMetadata.key}']:'${key}'`, limit: 10 }),
    );
    if (found.data[0]) return found.data[0];
    const madeAt = hints.madeAt ? Date.parse(hints.madeAt) : 0;
    return Date.now() - madeAt < searchLagMs ? 'unknown' : undefined;
  }

  return {
    cardEntry: 'redirect',

    async charge() {
      throw new Error('the Stripe connector takes no card number: its checkout is a Stripe Checkout Session');
    },
    async verify() {
      throw new Error('the Stripe connector takes no card number: its checkout is a Stripe Checkout Session');
    },
    async completeChallenge() {
      throw new Error('a Stripe checkout is read back (readRedirect), not completed by cobro');
    },

    async beginRedirect(request: RedirectRequest): Promise<RedirectRequired> {
      const metadata = metadataOf(request.idempotencyKey, request.attemptId);
      const currency = request.currency.toLowerCase();
      const keepsCard = request.saveCard || request.purpose === 'save_card';
      // A card kept for later belongs to a Stripe customer: made first, under the attempt's key too.
      const customer = keepsCard
        ? await ask('a customer creation', () =>
            stripe.customers.create(
              { ...(request.customerEmail ? { email: request.customerEmail } : {}), metadata },
              { idempotencyKey: `${request.idempotencyKey}:customer` },
            ),
          )
        : undefined;
      const separator = request.returnUrl.includes('?') ? '&' : '?';
      const common: Stripe.Checkout.SessionCreateParams = {
        success_url: `${request.returnUrl}${separator}session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: request.cancelUrl,
        expires_at: Math.floor(request.expiresAt.getTime() / 1000),
        client_reference_id: request.attemptId,
        locale: request.lang,
        metadata,
        ...(customer
          ? { customer: customer.id }
          : request.customerEmail
            ? { customer_email: request.customerEmail }
            : {}),
      };
      const params: Stripe.Checkout.SessionCreateParams =
        request.purpose === 'save_card'
          ? {
              ...common,
              mode: 'setup',
              currency,
              setup_intent_data: { metadata, description: request.description },
            }
          : {
              ...common,
              mode: 'payment',
              line_items: [
                {
                  quantity: 1,
                  price_data: {
                    currency,
                    unit_amount: request.amountMinor,
                    product_data: { name: request.description || 'Payment' },
                  },
                },
              ],
              payment_intent_data: {
                metadata,
                description: request.description,
                ...(request.saveCard ? { setup_future_usage: 'off_session' } : {}),
              },
            };
      const session = await ask('a checkout session creation', () =>
        stripe.checkout.sessions.create(params, { idempotencyKey: request.idempotencyKey }),
      );
      if (!session.url) throw new Error(`Stripe made checkout session ${session.id} without a URL`);
      return { status: 'redirect', challengeId: session.id, url: session.url };
    },

    readRedirect(challengeId) {
      return sessionOutcome(challengeId);
    },

    async chargeStored(request) {
      const { customer, paymentMethod } = readCardToken(request.cardToken);
      const attemptId = attemptOfKey(request.idempotencyKey);
      try {
        const intent = await ask('an off-session payment', () =>
          stripe.paymentIntents.create(
            {
              amount: request.amountMinor,
              currency: request.currency.toLowerCase(),
              customer,
              payment_method: paymentMethod,
              off_session: true,
              confirm: true,
              description: request.description,
              metadata: metadataOf(request.idempotencyKey, attemptId),
              expand: ['payment_method'],
            },
            { idempotencyKey: request.idempotencyKey },
          ),
        );
        const outcome = paymentOutcome(intent);
        if (outcome.status === 'approved' || outcome.status === 'declined') return outcome;
        // Anything else Stripe would finish later (processing): asked again by key.
        throw new AcquirerUnavailable(`off-session payment ${intent.id} is ${intent.status}`);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const declined: DeclinedCharge = {
            status: 'declined',
            declineReason: declineReasonOf(error.code, error.decline_code),
            card: cardOf(error.payment_method as Stripe.PaymentMethod | undefined),
          };
          return declined;
        }
        throw error;
      }
    },

    async refund(request): Promise<RefundResult> {
      const attemptId = attemptOfKey(request.idempotencyKey);
      try {
        const refund = await ask('a refund', () =>
          stripe.refunds.create(
            {
              payment_intent: request.acquirerReference,
              amount: request.amountMinor,
              metadata: metadataOf(request.idempotencyKey, attemptId),
            },
            { idempotencyKey: request.idempotencyKey },
          ),
        );
        if (refund.status === 'failed' || refund.status === 'canceled')
          return { status: 'failed', reason: 'refused' };
        return { status: 'succeeded', refundReference: refund.id };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) {
          if (error.code === 'resource_missing') return { status: 'failed', reason: 'unknown_charge' };
          if (error.code === 'charge_already_refunded' || error.code === 'amount_too_large')
            return { status: 'failed', reason: 'exceeds_charge' };
        }
        // Any other answer Stripe gave is a definite refusal that moved nothing (a disputed charge's
        // `charge_disputed`, a key without the right): never an unknown outcome to look up later.
        if (definiteRefusal(error)) return { status: 'failed', reason: 'refused' };
        throw error;
      }
    },

    async payout() {
      throw new Error('cobro does not pay out Stripe charges: Stripe pays out on its own schedule');
    },

    async findCharge(idempotencyKey, _test, hints: LookupHints = {}): Promise<FoundCharge> {
      if (hints.challengeId?.startsWith('cs_')) {
        let outcome = await sessionOutcome(hints.challengeId);
        // Due, the payer's time on Stripe's page is over: closing it means nothing more can be paid.
        if (outcome.status === 'challenge_required' && hints.abandon) {
          await expire(hints.challengeId);
          outcome = await sessionOutcome(hints.challengeId);
        }
        return outcome;
      }
      const intent = await intentByKey(idempotencyKey, hints);
      if (intent === 'unknown')
        throw new AcquirerUnavailable(`Stripe's search may not show ${idempotencyKey} yet`);
      return intent ? paymentOutcome(intent) : ({ status: 'not_found' } satisfies NotFound);
    },

    async findRefund(idempotencyKey, _test, hints: LookupHints = {}): Promise<RefundResult | NotFound> {
      if (!hints.chargeReference) return { status: 'not_found' };
      const refunds = stripe.refunds.list({ payment_intent: hints.chargeReference, limit: 100 });
      for await (const refund of refunds) {
        if (refund.metadata?.[stripeMetadata.key] !== idempotencyKey) continue;
        if (refund.status === 'failed' || refund.status === 'canceled')
          return { status: 'failed', reason: 'refused' };
        return { status: 'succeeded', refundReference: refund.id };
      }
      return { status: 'not_found' };
    },

    async findPayout(): Promise<NotFound> {
      return { status: 'not_found' };
    },

    async *ledger(range): AsyncIterable<LedgerEntry> {
      const created = {
        gte: Math.floor(range.since.getTime() / 1000),
        lt: Math.ceil(range.until.getTime() / 1000),
      };
      // Only what cobro made (its metadata): anything else in the account is the merchant's own business.
      for await (const intent of stripe.paymentIntents.list({ created, limit: 100 })) {
        const key = intent.metadata[stripeMetadata.key];
        if (!key || intent.status !== 'succeeded') continue;
        yield {
          kind: 'charge',
          idempotencyKey: key,
          reference: intent.id,
          chargeReference: null,
          amountMinor: intent.amount_received,
          currency: intent.currency.toUpperCase(),
          merchant: options.developerId,
          test,
          at: new Date(intent.created * 1000).toISOString(),
        };
      }
      for await (const refund of stripe.refunds.list({ created, limit: 100 })) {
        const key = refund.metadata?.[stripeMetadata.key];
        if (!key || (refund.status !== 'succeeded' && refund.status !== 'pending')) continue;
        yield {
          kind: 'refund',
          idempotencyKey: key,
          reference: refund.id,
          chargeReference: idOf(refund.payment_intent),
          amountMinor: refund.amount,
          currency: refund.currency.toUpperCase(),
          merchant: options.developerId,
          test,
          at: new Date(refund.created * 1000).toISOString(),
        };
      }
    },

    async *settlements(range): AsyncIterable<Settlement> {
      const created = {
        gte: Math.floor(range.since.getTime() / 1000),
        lt: Math.ceil(range.until.getTime() / 1000),
      };
      for await (const payout of stripe.payouts.list({ created, limit: 100 })) {
        if (payout.status !== 'paid') continue;
        const settled = await payoutSettlement(stripe, payout.id);
        yield {
          payoutReference: payout.id,
          paidAt: new Date(payout.arrival_date * 1000).toISOString(),
          merchant: options.developerId,
          test,
          settled: settled.map(({ idempotencyKey, netMinor }) => ({ idempotencyKey, netMinor })),
        };
      }
    },
  };
}

/**
 * The charges a Stripe payout settled, by the cobro attempt that made each (its PaymentIntent's
 * metadata) and the net paid out of it; charges not made by cobro are not cobro's to record.
 */
export async function payoutSettlement(
  stripe: Stripe,
  payoutId: string,
): Promise<{ idempotencyKey: string; attemptId: string; netMinor: number }[]> {
  const settled: { idempotencyKey: string; attemptId: string; netMinor: number }[] = [];
  for await (const transaction of stripe.balanceTransactions.list({
    payout: payoutId,
    type: 'charge',
    limit: 100,
  })) {
    const chargeId = idOf(transaction.source as { id: string } | string | null);
    if (!chargeId) continue;
    const charge = await stripe.charges.retrieve(chargeId, { expand: ['payment_intent'] });
    const metadata = (charge.payment_intent as Stripe.PaymentIntent | null)?.metadata;
    const key = metadata?.[stripeMetadata.key];
    const attemptId = metadata?.[stripeMetadata.attempt];
    if (key && attemptId) settled.push({ idempotencyKey: key, attemptId, netMinor: transaction.net });
  }
  return settled;
}

/** What `accounts connect` learns of a key before storing it: the Stripe account it opens, and its mode. */
export async function checkStripeKey(
  secretKey: string,
  apiUrl?: string,
): Promise<{ accountId: string; accountName: string | null; livemode: boolean }> {
  const account = await stripeClient(secretKey, apiUrl, 10_000).accounts.retrieveCurrent();
  return {
    accountId: account.id,
    accountName: account.settings?.dashboard?.display_name ?? account.business_profile?.name ?? null,
    livemode: /^(?:sk|rk)_live_/.test(secretKey),
  };
}

/**
 * The Stripe webhook endpoint that sends an account's events to cobro's `url`:
 * - with `secret` (the operator copied it from Stripe's dashboard): checked to exist, enabled, at
 *   `url`, sending every event cobro acts on; `problem` says what is wrong, `unchecked` when the key
 *   may not read endpoints (a restricted key without that right);
 * - without: made now by cobro (the key must be allowed to), its signing secret answered, unless one
 *   points there already (its secret is not readable again: `problem`).
 */
export async function stripeEndpointFor(
  secretKey: string,
  url: string,
  secret: string | undefined,
  apiUrl?: string,
): Promise<{ secret?: string; problem?: string; unchecked?: boolean }> {
  const stripe = stripeClient(secretKey, apiUrl, 10_000);
  const existing: Stripe.WebhookEndpoint[] = [];
  try {
    for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 }))
      if (endpoint.url === url) existing.push(endpoint);
  } catch (error) {
    if (secret && error instanceof Stripe.errors.StripePermissionError) return { unchecked: true };
    throw error;
  }
  const sends = (endpoint: Stripe.WebhookEndpoint) =>
    endpoint.status === 'enabled' &&
    stripeEventTypes.every(
      (type) => endpoint.enabled_events.includes(type) || endpoint.enabled_events.includes('*'),
    );
  if (secret) {
    if (existing.length === 0)
      return { problem: `no webhook endpoint of this Stripe account points at ${url}` };
    if (!existing.some(sends))
      return {
        problem: `the webhook endpoint at ${url} is disabled or does not send ${stripeEventTypes.join(', ')}`,
      };
    return {};
  }
  if (existing.length)
    return {
      problem: `a webhook endpoint at ${url} exists already and its signing secret cannot be read again: give it with --stripe-webhook-secret, or delete it in Stripe's dashboard`,
    };
  const made = await stripe.webhookEndpoints.create({
    url,
    enabled_events: [...stripeEventTypes],
    // Events in the version cobro's calls use (an endpoint made in the dashboard sends the
    // account's default; cobro reads each event's object back by id either way).
    api_version: apiVersion,
    description: 'cobro: the account events',
  });
  if (!made.secret) throw new Error('Stripe made the webhook endpoint without a signing secret');
  return { secret: made.secret };
}
