/**
 * The owner of a card session (checkout's SessionOwner for `card`): a subscriber replacing, from the
 * customer portal, the card their subscription is charged to. The page checks the new card with the
 * acquirer (3-D Secure challenge included) and charges nothing itself; its approval stores the
 * card's token on the subscription, in the same transaction as the session and the attempt, with
 * `subscription.card_updated`. A past-due subscription is then due at once, and its unpaid period is
 * charged on the new card before the page answers (chargeOverdue: the renewal's own attempt, so a
 * billing run racing it charges nothing more). A subscription canceled meanwhile keeps its old card:
 * the approval is voided (nothing was charged).
 *
 * A card the acquirer declines at this page (its check, or a failed 3-D Secure challenge) is a
 * decline for the dashboard's counters (`card.declined`), each try. A declined charge of the unpaid
 * period afterwards is not: it is that period's renewal declined again (`subscription.payment_failed`,
 * a failed renewal, as a billing run's would be), so it is counted once, there.
 */

import { cardDeclined } from '../charges/events.ts';
import type { SessionOwner } from '../checkout/owner.ts';
import { scopeOf } from '../core/account.ts';
import { eventWrite, internalEventWrite } from '../events/event.ts';
import { type BillingDeps, chargeOverdue } from '../subscriptions/billing.ts';
import { getSubscription, subscriptionWrites } from '../subscriptions/repository.ts';
import { type Subscription, subscriptionView } from '../subscriptions/subscription.ts';
import { subscriptionCardUpdated } from './events.ts';

/** Statuses whose card a subscriber may replace: those still billed. */
export const cardReplaceable: readonly Subscription['status'][] = ['trialing', 'active', 'past_due'];

export function cardPages(deps: BillingDeps): SessionOwner {
  return {
    chargeOf: (session) => ({ source: 'subscription', subscriptionId: session.subscription_id ?? null }),
    checksOnly: () => true,
    async approved({ session, card, cardToken, now }) {
      const before = await getSubscription(deps, scopeOf(session), session.subscription_id ?? '');
      if (!before || !cardReplaceable.includes(before.status))
        return { kind: 'gone', reason: 'subscription_canceled' };
      const after: Subscription = {
        ...before,
        card_token: cardToken,
        card: { brand: card.brand, last4: card.last4 },
        // Past due: the unpaid period is due now, on the new card (charged right after this write;
        // should that stop, the next billing run charges it).
        ...(before.status === 'past_due' ? { next_action_at: now.toISOString() } : {}),
        version: before.version + 1,
        updated_at: now.toISOString(),
      };
      const event = subscriptionCardUpdated.of(
        scopeOf(session),
        {
          object: subscriptionView(after),
          card: { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear },
        },
        now,
      );
      return {
        kind: 'apply',
        items: [...subscriptionWrites(deps.table, before, after), eventWrite(deps.table, event)],
      };
    },
    // The session's own page, which then says the card was saved.
    answerOf: (session) => ({ kind: 'redirect', location: session.return_url }),
    async afterApproval(session) {
      await chargeOverdue(deps, scopeOf(session), session.subscription_id ?? '');
    },
    // Each declined try is told to the dashboard's counters (an internal event: no webhook).
    declined: async (session, reason, now) => [
      internalEventWrite(
        deps.table,
        cardDeclined.of(scopeOf(session), { source: 'card', decline_reason: reason }, now),
      ),
    ],
  };
}
