/**
 * What a card page opened from the portal says once the card is saved (checkout renders it): the
 * card the subscription is charged to now, as the subscription stores it; what became of the
 * payment that was overdue when the page was made; and the portal page to go back to, while the
 * link it was opened from still opens it (the token is opened from its seal only for this).
 */
import type { CheckoutSession } from '../checkout/session.ts';
import type { CardSaved } from '../checkout/views.ts';
import { scopeOf } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { getSubscription } from '../subscriptions/repository.ts';
import { openPortalToken } from './return.ts';
import { type PortalKeys, portalUrl } from './service.ts';

export async function cardSavedOf(
  deps: Deps,
  keys: PortalKeys,
  baseUrl: string,
  session: CheckoutSession,
): Promise<CardSaved> {
  const now = deps.clock().getTime();
  const from = session.from_portal;
  const [subscription, token] = await Promise.all([
    getSubscription(deps, scopeOf(session), session.subscription_id ?? ''),
    from && now < from.until_ms
      ? keys.lookup().then((all) => openPortalToken(all, from.sealed_token))
      : undefined,
  ]);
  const nextAt = subscription?.next_action_at ? Date.parse(subscription.next_action_at) : now;
  // Still past due: declined on the new card too when its next attempt was moved on (dunning),
  // otherwise due now and being charged (the request that saved the card stopped before the answer).
  const overdue: CardSaved['overdue'] =
    !from?.was_past_due || !subscription || subscription.status === 'canceled'
      ? null
      : subscription.status !== 'past_due'
        ? { state: 'paid' }
        : nextAt > now
          ? { state: 'declined', nextAttemptAt: subscription.next_action_at }
          : { state: 'charging' };
  return {
    card: subscription?.card ?? null,
    overdue,
    backUrl: token ? portalUrl(baseUrl, token) : null,
  };
}
