/**
 * The owner of a subscription's checkout session (checkout's SessionOwner): an approval starts the
 * subscription in the same transaction as the session and the first charge (`trialing` until
 * the trial's end, else `active` with its first period paid), counts it on its plan and stores
 * `subscription.activated`. So a cancel either comes before (the subscription is canceled and the
 * approval is `gone`: the charge recorded and refunded at once) or after (an active
 * subscription canceled): never canceled with the charge kept, never active after a cancel.
 */
import { cardDeclined } from '../charges/events.ts';
import type { SessionOwner } from '../checkout/owner.ts';
import type { CheckoutSession } from '../checkout/session.ts';
import { scopeOf } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { eventWrite, internalEventWrite } from '../events/event.ts';
import { subscriptionActivated } from './events.ts';
import { periodAt } from './periods.ts';
import { getSubscription, planCountChange, subscriptionWrites } from './repository.ts';
import { type Subscription, subscriptionPrice, subscriptionView } from './subscription.ts';

const day = 86_400_000;

/** The subscription as its checkout starts it. */
export function started(
  before: Subscription,
  paid: {
    customerId: string;
    cardToken: string;
    card: { brand: string; last4: string };
    paidAt: Date;
    trialDays: number;
  },
  now: Date,
): Subscription {
  const trialEnd = paid.trialDays > 0 ? new Date(paid.paidAt.getTime() + paid.trialDays * day) : null;
  const anchor = trialEnd ?? paid.paidAt;
  const { interval, interval_count: count } = before.plan;
  return {
    ...before,
    status: trialEnd ? 'trialing' : 'active',
    customer_id: paid.customerId,
    card_token: paid.cardToken,
    card: { brand: paid.card.brand, last4: paid.card.last4 },
    anchor: anchor.toISOString(),
    started_at: paid.paidAt.toISOString(),
    trial_end: trialEnd?.toISOString() ?? null,
    paid_through: trialEnd ? -1 : 0,
    next_action_at: (trialEnd ?? periodAt(anchor, interval, count, 0).end).toISOString(),
    version: before.version + 1,
    updated_at: now.toISOString(),
  };
}

/** `return_url` with `subscription_id` added to its query. */
function subscriptionReturnUrl(session: CheckoutSession): string {
  const url = new URL(session.return_url);
  url.searchParams.set('subscription_id', session.subscription_id ?? '');
  return url.toString();
}

export function subscriptionPages(deps: Deps): SessionOwner {
  return {
    chargeOf: (session) => ({ source: 'subscription', subscriptionId: session.subscription_id ?? null }),
    // A trial checks the card and charges nothing at checkout.
    checksOnly: (session) => (session.trial_days ?? 0) > 0,
    async approved({ session, customer, card, cardToken, now }) {
      const scope = scopeOf(session);
      const before = await getSubscription(deps, scope, session.subscription_id ?? '');
      // Canceled while the acquirer was charging; only its own session starts a pending one.
      if (before?.status !== 'pending') return { kind: 'gone', reason: 'subscription_canceled' };
      const after = started(
        before,
        { customerId: customer.id, cardToken, card, paidAt: now, trialDays: session.trial_days ?? 0 },
        now,
      );
      const event = subscriptionActivated.of(
        scopeOf(session),
        { object: subscriptionView(after), price: subscriptionPrice(after) },
        now,
      );
      return {
        kind: 'apply',
        items: [...subscriptionWrites(deps.table, before, after), eventWrite(deps.table, event)],
        // Its plan counts it, unless the plan was deleted meanwhile (then its cascade cancels it).
        optional: [planCountChange(deps, before, 1)],
      };
    },
    answerOf: (session) => ({ kind: 'redirect', location: subscriptionReturnUrl(session) }),
    // Each declined try is told to the dashboard's counters (no webhook: payment.failed is a payment's).
    declined: async (session, reason, now) => [
      internalEventWrite(
        deps.table,
        cardDeclined.of(scopeOf(session), { source: 'subscription', decline_reason: reason }, now),
      ),
    ],
  };
}
