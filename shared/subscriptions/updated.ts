/**
 * `subscription.updated` (docs/design.md#subscription-changes): the subscription as it is after a
 * change, and `previous_attributes`, the former value of each field of its view that moved.
 */
import { scopeOf } from '../core/account.ts';
import { subscriptionUpdated } from './events.ts';
import { type Subscription, type SubscriptionView, subscriptionView } from './subscription.ts';

/** The fields of the view a change may move, for `previous_attributes`. */
const changeable = [
  'plan_id',
  'quantity',
  'cancel_at_period_end',
  'cancel_at',
  'pending_change',
  'metadata',
] as const satisfies readonly (keyof SubscriptionView)[];

/** The former values of the view's fields that differ between `before` and `after`. */
export function previousAttributes(before: Subscription, after: Subscription): Record<string, unknown> {
  const was = subscriptionView(before);
  const now = subscriptionView(after);
  const moved: Record<string, unknown> = {};
  for (const field of changeable)
    if (JSON.stringify(was[field]) !== JSON.stringify(now[field])) moved[field] = was[field];
  return moved;
}

/** `subscription.updated` for the change from `before` to `after` (with the charge that paid for it). */
export function updatedEvent(before: Subscription, after: Subscription, now: Date, chargeId?: string) {
  return subscriptionUpdated.of(
    scopeOf(after),
    {
      object: subscriptionView(after),
      previous_attributes: previousAttributes(before, after),
      ...(chargeId ? { charge_id: chargeId } : {}),
    },
    now,
  );
}
