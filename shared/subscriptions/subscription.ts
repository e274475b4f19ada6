/**
 * The subscription as stored, and how it is shown (the API's Subscription record). Periods
 * come from periods.ts: period n runs from the anchor plus n intervals to the anchor plus n+1.
 * `paid_through` is the last period paid (-1 before any), so the period a renewal charges is always
 * `paid_through + 1`, whoever runs it and however often.
 */
import * as v from 'valibot';
import type { Mode } from '../core/account.ts';
import type { Metadata } from '../core/metadata.ts';
import { formatAmount } from '../core/money/amount.ts';
import { currencyOf } from '../core/money/fields.ts';
import { billingDate, type Interval, periodAt } from './periods.ts';

export const subscriptionStatuses = ['pending', 'trialing', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Statuses counted in the plan's active subscriptions (`information.count`). */
export const countedStatuses: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

/** Days after a failed renewal on which it is retried; the third failed retry cancels. */
export const dunningRetryDays = [1, 3, 5] as const;

/** The plan a subscription charges, as it was when it was subscribed to (or changed to). */
export interface PlanSnapshot {
  name: string;
  amount: number;
  currency: string;
  interval: Interval;
  interval_count: number;
}

/**
 * A change of plan or quantity that waits for the period's end (a lower amount per period, or
 * another interval): the renewal at `effective_at` charges it and makes it the subscription's.
 */
export interface PendingChange {
  plan_id: string;
  plan: PlanSnapshot;
  quantity: number;
  /** The end of the period it was asked in: when the renewal applies it. */
  effective_at: string;
}

export interface Subscription {
  id: string;
  developer_id: number;
  mode: Mode;
  plan_id: string;
  /** The plan as it was subscribed to: a renewal charges these, whatever the plan becomes. */
  plan: PlanSnapshot;
  quantity: number;
  customer_id: string | null;
  status: SubscriptionStatus;
  /** Internal: false once canceled. */
  active: boolean;
  statement_descriptor: string;
  /** The token of its checkout session: canceling a pending subscription closes that page. */
  checkout_token?: string | null;
  /** The acquirer's token of the card approved at checkout: renewals charge it (never a card number). */
  card_token: string | null;
  /**
   * What may be shown of that card: its brand and last four digits, kept beside the token at checkout
   * and when the card is replaced; absent on subscriptions started before it was kept.
   */
  card?: { brand: string; last4: string } | null;
  /** The first period's start (the anchor periods count from), or null before checkout. */
  anchor: string | null;
  trial_end: string | null;
  /** When its checkout succeeded (the trial's start); absent before, and on records older than it. */
  started_at?: string | null;
  /** The last period paid; -1 before the first. */
  paid_through: number;
  /** Failed attempts at the period due (dunning), 0 when none. */
  failed_attempts: number;
  /** When the last renewal of the period due failed: the retries count from it. */
  failed_at: string | null;
  /** When the billing step next has work for it (the due index holds the same time). */
  next_action_at: string | null;
  /** Ends at the current period's end (or the trial's) instead of renewing; absent: false. */
  cancel_at_period_end?: boolean;
  /** A change of plan or quantity the next renewal applies; absent: none. */
  pending_change?: PendingChange | null;
  /** The merchant's own key-value pairs; absent: none. */
  metadata?: Metadata | null;
  /**
   * How many times the periods were counted again from a new anchor (a renewal that applied a
   * change of interval starts the new plan's first period there); absent: 0. It is part of a
   * renewal's attempt id, so a period index counted again never meets an earlier attempt.
   */
  anchor_generation?: number;
  version: number;
  created_at: string;
  updated_at: string;
  canceled_at: string | null;
}

/** What one period charges: the plan's amount × the quantity, in minor units of the plan's currency. */
export const periodAmount = (plan: Pick<PlanSnapshot, 'amount'>, quantity: number) => plan.amount * quantity;

export const PendingChangeViewSchema = v.pipe(
  v.strictObject({
    plan_id: v.string(),
    quantity: v.number(),
    effective_at: v.pipe(v.string(), v.description('When the renewal applies it: the current period’s end.')),
  }),
  v.description(
    'A change of plan or quantity that waits for the period’s end (a lower amount, or another interval).',
  ),
);

export const SubscriptionViewSchema = v.strictObject({
  subscription_id: v.string(),
  plan_id: v.string(),
  customer_id: v.nullable(v.string()),
  status: v.picklist(subscriptionStatuses),
  quantity: v.pipe(
    v.number(),
    v.description('Units charged each period: each charge is the plan’s amount × quantity.'),
  ),
  current_period_start: v.nullable(v.string()),
  current_period_end: v.nullable(v.string()),
  next_billing_date: v.nullable(v.string()),
  trial_end: v.nullable(v.string()),
  cancel_at_period_end: v.pipe(
    v.boolean(),
    v.description('It ends at the current period’s (or trial’s) end instead of renewing.'),
  ),
  cancel_at: v.pipe(v.nullable(v.string()), v.description('When it ends, when cancel_at_period_end is set.')),
  pending_change: v.nullable(PendingChangeViewSchema),
  metadata: v.nullable(v.record(v.string(), v.unknown())),
  created_at: v.string(),
  test: v.boolean(),
});
export type SubscriptionView = v.InferOutput<typeof SubscriptionViewSchema>;

/** The period a subscription is in, or waits to be paid for: `paid_through + 1` while past due. */
export function currentPeriod(subscription: Subscription) {
  if (!subscription.anchor) return undefined;
  const index =
    subscription.status === 'past_due' ? subscription.paid_through + 1 : subscription.paid_through;
  const { interval, interval_count: count } = subscription.plan;
  return periodAt(new Date(subscription.anchor), interval, count, Math.max(0, index));
}

/** What a past-due subscription owes, as the portal and the dashboard say it. */
export interface Overdue {
  /** One period's charge: the plan's amount × the quantity, in minor units of the plan's currency. */
  amount: number;
  currency: string;
  /** When it fell due: the unpaid period's start. */
  since: string;
  /** When the billing step tries it again; null when no retry is left. */
  nextAttemptAt: string | null;
}

/** A past-due subscription's unpaid period as the subscription stores it; undefined unless past due. */
export function overdueOf(subscription: Subscription): Overdue | undefined {
  if (subscription.status !== 'past_due') return undefined;
  return {
    amount: periodAmount(subscription.plan, subscription.quantity),
    currency: subscription.plan.currency,
    since:
      currentPeriod(subscription)?.start.toISOString() ?? subscription.failed_at ?? subscription.updated_at,
    nextAttemptAt: subscription.next_action_at,
  };
}

export function subscriptionView(subscription: Subscription): SubscriptionView {
  // In a trial, or canceled before its trial ended: the trial is its period (one canceled in its
  // trial never reached the first billed period, so that one is never shown).
  const trialing =
    subscription.status === 'trialing' ||
    (subscription.status === 'canceled' &&
      subscription.trial_end !== null &&
      subscription.canceled_at !== null &&
      subscription.canceled_at < subscription.trial_end);
  const period = trialing ? undefined : currentPeriod(subscription);
  const periodEnd = trialing ? subscription.trial_end : (period?.end.toISOString() ?? null);
  const ending = subscription.cancel_at_period_end === true && subscription.status !== 'canceled';
  const pending = subscription.status === 'canceled' ? null : (subscription.pending_change ?? null);
  return {
    subscription_id: subscription.id,
    plan_id: subscription.plan_id,
    customer_id: subscription.customer_id,
    status: subscription.status,
    quantity: subscription.quantity,
    // The trial's period: from checkout to trial_end, billed then.
    current_period_start: trialing
      ? (subscription.started_at ?? subscription.created_at)
      : (period?.start.toISOString() ?? null),
    current_period_end: periodEnd,
    next_billing_date:
      subscription.status === 'canceled' || subscription.status === 'pending'
        ? null
        : trialing
          ? (subscription.trial_end?.slice(0, 10) ?? null)
          : period
            ? billingDate(period)
            : null,
    trial_end: subscription.trial_end,
    cancel_at_period_end: ending,
    cancel_at: ending ? periodEnd : null,
    pending_change: pending
      ? { plan_id: pending.plan_id, quantity: pending.quantity, effective_at: pending.effective_at }
      : null,
    metadata: subscription.metadata ?? null,
    created_at: subscription.created_at,
    test: subscription.mode === 'test',
  };
}

/**
 * What it charges each period, as `subscription.activated` carries it (the plan as subscribed to,
 * and the quantity): what the dashboard's recurring revenue counts.
 */
export function subscriptionPrice(subscription: Subscription) {
  const { plan } = subscription;
  return {
    amount: formatAmount(plan.amount, currencyOf(plan)),
    currency: currencyOf(plan).code,
    interval: plan.interval,
    interval_count: plan.interval_count,
    quantity: subscription.quantity,
  };
}

/** The list form the API answers. */
export const subscriptionListItem = (subscription: Subscription) => {
  const { subscription_id, plan_id, customer_id, status, next_billing_date, test } =
    subscriptionView(subscription);
  return { subscription_id, plan_id, customer_id, status, next_billing_date, test };
};

/** The by-plan form: the list form without the plan. */
export const planSubscriptionItem = (subscription: Subscription) => {
  const { plan_id: _plan, ...rest } = subscriptionListItem(subscription);
  return rest;
};
