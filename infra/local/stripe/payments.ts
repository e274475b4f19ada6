/**
 * A payment attempt: a PaymentIntent tried with a card PaymentMethod, as the Checkout page and
 * `POST /v1/payment_intents` with `confirm` both make one. The card's behaviour (cards.ts) decides;
 * success makes the Charge and its BalanceTransaction, a decline records Stripe's
 * `last_payment_error` (and a failed Charge when the issuer saw it).
 */
import type Stripe from 'stripe';
import { type CardUse, cardOutcome, type Decline, declines } from './cards.ts';
import { type Context, emit, owned } from './context.ts';
import { StripeFailure } from './errors.ts';
import { balanceTransactionObject, cardFee, chargeObject } from './objects.ts';
import type { Owned, PaymentMethodRecord } from './store.ts';

export type AttemptOutcome = 'approved' | 'requires_action' | Decline;

const twoDays = 2 * 86_400;

/** Tries `intent` with `method`, used so; a `refuse` fault declines it `processing_error`. */
export function attemptPayment(
  ctx: Context,
  intent: Owned<Stripe.PaymentIntent>,
  method: PaymentMethodRecord,
  use: CardUse,
): AttemptOutcome {
  const outcome = ctx.refuse ? declines.processingError : cardOutcome(method.behaviour, use);
  const pi = intent.object;
  pi.payment_method = method.object.id;
  ctx.store.changed();
  if (outcome === 'requires_action') {
    pi.status = 'requires_action';
    pi.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: {} } as Stripe.PaymentIntent.NextAction;
    emit(ctx, 'payment_intent.requires_action', pi);
    return outcome;
  }
  if (outcome === 'approved') {
    const charge = owned(ctx, chargeObject(ctx, pi, method.object, null));
    const created = ctx.store.now();
    const fee = cardFee(pi.amount);
    const transaction = owned(
      ctx,
      balanceTransactionObject(ctx, {
        type: 'charge',
        reporting_category: 'charge',
        amount: pi.amount,
        fee,
        currency: pi.currency,
        source: charge.object.id,
        description: pi.description,
        status: 'pending',
        available_on: created + twoDays,
      }),
    );
    charge.object.balance_transaction = transaction.object.id;
    ctx.store.add('charges', charge);
    ctx.store.add('balanceTransactions', { ...transaction, payout: null });
    Object.assign(pi, {
      status: 'succeeded',
      amount_received: pi.amount,
      latest_charge: charge.object.id,
      last_payment_error: null,
      next_action: null,
    });
    emit(ctx, 'charge.succeeded', charge.object);
    emit(ctx, 'payment_intent.succeeded', pi);
    return outcome;
  }
  let chargeId: string | undefined;
  if (outcome.reachedIssuer) {
    const charge = owned(ctx, chargeObject(ctx, pi, method.object, outcome));
    ctx.store.add('charges', charge);
    chargeId = charge.object.id;
    pi.latest_charge = chargeId;
    emit(ctx, 'charge.failed', charge.object);
  }
  Object.assign(pi, {
    status: 'requires_payment_method',
    // A declined method is let go: the next try needs one again, as at Stripe.
    payment_method: null,
    next_action: null,
    last_payment_error: {
      type: 'card_error',
      code: outcome.code,
      ...(outcome.decline_code ? { decline_code: outcome.decline_code } : {}),
      message: outcome.message,
      doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replaceAll('_', '-')}`,
      ...(chargeId ? { charge: chargeId } : {}),
      payment_method: structuredClone(method.object),
    },
  });
  emit(ctx, 'payment_intent.payment_failed', pi);
  return outcome;
}

/** The 402 Stripe answers for a declined confirmation, carrying the PaymentIntent as it now is. */
export function declineFailure(intent: Stripe.PaymentIntent, decline: Decline): StripeFailure {
  const error = intent.last_payment_error;
  return new StripeFailure(402, {
    type: 'card_error',
    code: decline.code,
    ...(decline.decline_code ? { decline_code: decline.decline_code } : {}),
    message: decline.message,
    doc_url: `https://stripe.com/docs/error-codes/${decline.code.replaceAll('_', '-')}`,
    ...(error?.charge ? { charge: error.charge } : {}),
    payment_intent: structuredClone(intent),
    ...(error?.payment_method ? { payment_method: structuredClone(error.payment_method) } : {}),
  });
}
