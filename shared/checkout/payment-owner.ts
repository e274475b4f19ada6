/**
 * The owner of a payment's session (POST /v1/payments/): an approval completes the payment and
 * stores `payment.succeeded` with it; every decline stores `payment.failed` with its reason.
 * A payment cannot be canceled, so its approval is never `gone`.
 */
import type { CardSummary } from '../acquirer/acquirer.ts';
import { scopeOf } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import type { TransactItem } from '../db/transact.ts';
import { eventWrite } from '../events/event.ts';
import { paymentFailed, paymentSucceeded } from '../payments/events.ts';
import { paymentKeys } from '../payments/keys.ts';
import { paymentView, returnUrlFor } from '../payments/payment.ts';
import type { PaymentView } from '../payments/schemas.ts';
import type { SessionOwner } from './owner.ts';
import type { CheckoutSession } from './session.ts';

/**
 * The payment a session collects, as it stands after this attempt: pending, or completed with the
 * charge. `payment.succeeded`/`payment.failed` carry its one view.
 */
function paymentOf(
  session: CheckoutSession,
  paid: { chargeId: string; customerId: string; email: string; card: CardSummary } | null,
  now: Date,
): PaymentView {
  return paymentView({
    id: session.payment_id,
    developer_id: session.developer_id,
    mode: session.mode,
    amount: session.amount,
    currency: session.currency,
    description: session.description,
    items: session.items,
    return_url: session.return_url,
    status: paid ? 'completed' : 'pending',
    checkout_token: session.token,
    customer_id: paid?.customerId ?? null,
    customer_email: paid?.email ?? session.customer_email,
    charge_id: paid?.chargeId ?? null,
    payment_method: paid ? 'card' : null,
    card_last4: paid?.card.last4 ?? null,
    card_brand: paid?.card.brand ?? null,
    metadata: session.metadata ?? null,
    created_at: session.created_at,
    updated_at: now.toISOString(),
  });
}

/** The payment completed, conditioned on it still waiting (only its one session completes it). */
function completed(
  table: string,
  session: CheckoutSession,
  paid: { chargeId: string; customerId: string; email: string; card: CardSummary },
  now: Date,
): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: paymentKeys.payment(session.developer_id, session.mode, session.payment_id),
      UpdateExpression:
        'SET #status = :completed, charge_id = :charge, customer_id = :customer, customer_email = :email, payment_method = :card, card_last4 = :last4, card_brand = :brand, updated_at = :now',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':pending': 'pending',
        ':charge': paid.chargeId,
        ':customer': paid.customerId,
        ':email': paid.email,
        ':card': 'card',
        ':last4': paid.card.last4,
        ':brand': paid.card.brand,
        ':now': now.toISOString(),
      },
    },
  };
}

export function paymentPages(deps: Pick<Deps, 'table'>): SessionOwner {
  return {
    chargeOf: (session) => ({ source: 'checkout', paymentId: session.payment_id }),
    async approved({ session, charge, customer, card, now }) {
      if (!charge) throw new Error('a payment is always charged');
      const paid = { chargeId: charge.id, customerId: customer.id, email: customer.email, card };
      const event = paymentSucceeded.of(scopeOf(session), { object: paymentOf(session, paid, now) }, now);
      return {
        kind: 'apply',
        items: [completed(deps.table, session, paid, now), eventWrite(deps.table, event)],
      };
    },
    answerOf: (session) => ({
      kind: 'redirect',
      location: returnUrlFor({ id: session.payment_id, return_url: session.return_url }),
    }),
    async declined(session, reason, now) {
      // Every declined attempt is reported, with its reason, stored with the decline it reports.
      const event = paymentFailed.of(
        scopeOf(session),
        { object: { ...paymentOf(session, null, now), decline_reason: reason }, decline_reason: reason },
        now,
      );
      return [eventWrite(deps.table, event)];
    },
  };
}
