/**
 * What a change of plan or quantity does to a subscription (docs/design.md#subscription-changes),
 * decided from the subscription as read, the plan and quantity asked for, and the time:
 * - the plan and quantity it has already: nothing, or its pending change cleared;
 * - while trialing: applied at once, nothing charged (the trial's end charges the new amount);
 * - the same interval and interval count and a higher amount per period (plan amount × quantity):
 *   applied at once, the period keeping its dates, and the difference for the time left charged
 *   now: (new − old) × seconds left ÷ seconds in the period, in integer minor units rounded half up,
 *   unless that is worth less than USD 0.50 (then nothing is charged);
 * - otherwise (a lower or equal amount, another interval, or a period whose end has come and whose
 *   renewal has not run yet): a pending change, applied by the renewal at the period's end.
 */

import { worthAtLeast } from '../core/money/fees.ts';
import { currencyOf } from '../core/money/fields.ts';
import { type Period, periodAt } from './periods.ts';
import {
  currentPeriod,
  type PendingChange,
  type PlanSnapshot,
  periodAmount,
  type Subscription,
} from './subscription.ts';

/** A prorated difference worth less than this (US cents, through the rates) is not charged. */
export const prorationMinimumUsdCents = 50;

/** The plan and quantity a change asks for. */
export interface ChangeTarget {
  plan_id: string;
  plan: PlanSnapshot;
  quantity: number;
}

export type ChangeDecision =
  /** Nothing to do about the plan or quantity. */
  | { kind: 'none' }
  /** The plan and quantity asked are the current ones: the pending change is dropped. */
  | { kind: 'clear_pending' }
  /** Applied now; `charge` minor units charged for the rest of the period (0: nothing). */
  | { kind: 'at_once'; charge: number; period: Period | undefined }
  /** Applied by the renewal at the period's end. */
  | { kind: 'pending'; change: PendingChange };

/**
 * The difference between two amounts per period for the time left of `period` at `now`, in minor
 * units: (new − old) × seconds left ÷ seconds in the period, rounded half up, computed exactly
 * (BigInt). Whole seconds: a second begun is not counted as left.
 */
export function prorate(oldAmount: number, newAmount: number, period: Period, now: Date): number {
  const total = BigInt(Math.round((period.end.getTime() - period.start.getTime()) / 1000));
  const left = BigInt(Math.max(0, Math.floor((period.end.getTime() - now.getTime()) / 1000)));
  const cappedLeft = left > total ? total : left;
  const difference = BigInt(newAmount - oldAmount);
  if (total <= 0n || difference <= 0n) return 0;
  return Number((2n * difference * cappedLeft + total) / (2n * total));
}

/**
 * What changing `subscription` (active or trialing) to `target` at `now` does. `renewing`: the
 * renewal of the next period (or the trial's end) has begun charging: nothing applies at once then.
 */
export function decideChange(
  subscription: Subscription,
  target: ChangeTarget,
  now: Date,
  { renewing = false } = {},
): ChangeDecision {
  if (target.plan_id === subscription.plan_id && target.quantity === subscription.quantity)
    return subscription.pending_change ? { kind: 'clear_pending' } : { kind: 'none' };
  const period = currentPeriod(subscription);
  if (renewing && subscription.anchor) {
    // The renewal under way charges the next period at the current terms: the change waits for
    // that period's end.
    const { interval, interval_count: count } = subscription.plan;
    const next = periodAt(new Date(subscription.anchor), interval, count, subscription.paid_through + 1);
    return { kind: 'pending', change: { ...target, effective_at: next.end.toISOString() } };
  }
  if (subscription.status === 'trialing') return { kind: 'at_once', charge: 0, period: undefined };
  if (!period) return { kind: 'at_once', charge: 0, period: undefined };
  const before = periodAmount(subscription.plan, subscription.quantity);
  const after = periodAmount(target.plan, target.quantity);
  const sameCycle =
    target.plan.interval === subscription.plan.interval &&
    target.plan.interval_count === subscription.plan.interval_count;
  if (sameCycle && after > before && now < period.end) {
    const difference = prorate(before, after, period, now);
    const charged = worthAtLeast(difference, currencyOf(target.plan), prorationMinimumUsdCents)
      ? difference
      : 0;
    return { kind: 'at_once', charge: charged, period };
  }
  return {
    kind: 'pending',
    change: { ...target, effective_at: period.end.toISOString() },
  };
}
