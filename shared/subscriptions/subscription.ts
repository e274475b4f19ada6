/**
 * The subscription as stored, and how it is shown (the API's Subscription record). Periods
 * come from periods.ts: period n runs from the anchor plus n intervals to the anchor plus n+1.
 * `paid_through` is the last period paid (-1 before any), so the period a renewal charges is always
 * `paid_through + 1`, whoever runs it and however often.
 */
import * as v from 'valibot';
import type { Mode } from '../core/account.ts';
import { formatAmount } from '../core/money/amount.ts';
import { currencyOf } from '../core/money/fields.ts';
import { billingDate, type Interval, periodAt } from './periods.ts';

export const subscriptionStatuses = ['pending', 'trialing', 'active', 'past_due', 'canceled'] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** Statuses counted in the plan's active subscriptions (`information.count`). */
export const countedStatuses: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due'];

/** Days after a failed renewal on which it is retried; the third failed retry cancels. */
export const dunningRetryDays = [1, 3, 5] as const;

export interface Subscription {
  id: string;
  developer_id: number;
  mode: Mode;
  plan_id: string;
  /** The plan as it was subscribed to: a renewal charges these, whatever the plan becomes. */
  plan: { name: string; amount: number; currency: string; interval: Interval; interval_count: number };
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
  version: number;
  created_at: string;
  updated_at: string;
  canceled_at: string | null;
}

export const SubscriptionViewSchema = v.strictObject({
  subscription_id: v.string(),
  plan_id: v.string(),
  customer_id: v.nullable(v.string()),
  status: v.picklist(subscriptionStatuses),
  current_period_start: v.nullable(v.string()),
  current_period_end: v.nullable(v.string()),
  next_billing_date: v.nullable(v.string()),
  trial_end: v.nullable(v.string()),
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
    amount: subscription.plan.amount * subscription.quantity,
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
  return {
    subscription_id: subscription.id,
    plan_id: subscription.plan_id,
    customer_id: subscription.customer_id,
    status: subscription.status,
    // The trial's period: from checkout to trial_end, billed then.
    current_period_start: trialing
      ? (subscription.started_at ?? subscription.created_at)
      : (period?.start.toISOString() ?? null),
    current_period_end: trialing ? subscription.trial_end : (period?.end.toISOString() ?? null),
    next_billing_date:
      subscription.status === 'canceled' || subscription.status === 'pending'
        ? null
        : trialing
          ? (subscription.trial_end?.slice(0, 10) ?? null)
          : period
            ? billingDate(period)
            : null,
    trial_end: subscription.trial_end,
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
