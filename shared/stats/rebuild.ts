/**
 * Recomputes an account's overview counters from its records (`cobro stats rebuild --account N`):
 * for accounts with charges stored before the counters existed, or counters damaged by hand.
 * Operator work, never on a request path: it pages through the account's lists (charges, refunds,
 * subscriptions, and the events of the last 30 days for declines and failed renewals, which only
 * events record: `payment.failed`, the internal `card.declined`, `subscription.payment_failed`), then replaces every day item and the gauge with what it computed.
 *
 * It replaces rather than adds, so an event counted while it runs may be lost from (or, once its
 * list read it, doubled in) the day it falls on: run it when counters are introduced, or at a
 * quiet hour, and again if in doubt: it always lands on what the records say.
 */

import type { Charge } from '../charges/charge.ts';
import { cardDeclined } from '../charges/events.ts';
import { chargeKeys } from '../charges/keys.ts';
import type { Mode, Scope } from '../core/account.ts';
import { putAll } from '../db/batch.ts';
import type { Deps } from '../db/deps.ts';
import { queryEach, recordOf } from '../db/items.ts';
import type { EventDetail } from '../events/event.ts';
import { eventKeys } from '../events/keys.ts';
import { paymentFailed } from '../payments/events.ts';
import { refundKeys } from '../refunds/keys.ts';
import type { Refund } from '../refunds/refund.ts';
import { refundEntity } from '../refunds/repository.ts';
import { subscriptionPaymentFailed } from '../subscriptions/events.ts';
import { eachSubscription } from '../subscriptions/repository.ts';
import { countedStatuses } from '../subscriptions/subscription.ts';
import { dayOf, mrrAttribute, sumAttribute, weightOf } from './counters.ts';
import { statsKeys } from './keys.ts';
import { markerRetentionDays, statsEntities } from './repository.ts';

/** What a rebuild of one mode found and wrote. */
export interface RebuildSummary {
  days: number;
  charges: number;
  refunds: number;
  declines: number;
  failed_renewals: number;
  active_subscriptions: number;
}

/** Every item of a gsi list partition (those whose sort key begins with `prefix`, when given), page after page. */
const eachInIndex = (
  deps: Deps,
  index: 'gsi1' | 'gsi2',
  partition: string,
  prefix: string | undefined,
  visit: (item: Record<string, unknown>) => void,
) =>
  queryEach(
    deps,
    {
      IndexName: index,
      KeyConditionExpression: `${index}pk = :pk${prefix === undefined ? '' : ` AND begins_with(${index}sk, :prefix)`}`,
      ExpressionAttributeValues: { ':pk': partition, ...(prefix === undefined ? {} : { ':prefix': prefix }) },
    },
    (item) => {
      visit(item);
      return true;
    },
  );

/** Recomputes one mode's counters of an account. */
export async function rebuildScope(deps: Deps, scope: Scope): Promise<RebuildSummary> {
  const { developerId, mode } = scope;
  const days = new Map<string, Record<string, number>>();
  const add = (day: string, additions: Record<string, number>) => {
    const figures = days.get(day) ?? {};
    for (const [name, value] of Object.entries(additions)) figures[name] = (figures[name] ?? 0) + value;
    days.set(day, figures);
  };
  const summary: RebuildSummary = {
    days: 0,
    charges: 0,
    refunds: 0,
    declines: 0,
    failed_renewals: 0,
    active_subscriptions: 0,
  };

  await eachInIndex(
    deps,
    'gsi1',
    chargeKeys.inList(developerId, mode, '', '').gsi1pk,
    chargeKeys.listPrefix,
    (item) => {
      const charge = recordOf<Charge>(item);
      add(dayOf(charge.created_at), { charges: 1, [sumAttribute('volume', charge.currency)]: charge.amount });
      summary.charges += 1;
    },
  );
  await eachInIndex(deps, 'gsi1', refundKeys.list(developerId, mode), undefined, (item) => {
    if (item.entity !== refundEntity.tag) return;
    const refund = recordOf<Refund>(item);
    add(dayOf(refund.created_at), { refunds: 1, [sumAttribute('refunded', refund.currency)]: refund.amount });
    summary.refunds += 1;
  });
  // Declines and failed renewals are recorded only as events, kept 30 days: the overview's window.
  // The internal declines (card.declined) are in an internal list of their type, the rest in the
  // events API's.
  for (const [{ gsi2pk }, counter] of [
    [eventKeys.ofType(developerId, mode, paymentFailed.type, '', ''), 'declines'],
    [eventKeys.internalOfType(developerId, mode, cardDeclined.type, '', ''), 'declines'],
    [eventKeys.ofType(developerId, mode, subscriptionPaymentFailed.type, '', ''), 'failed_renewals'],
  ] as const) {
    await eachInIndex(deps, 'gsi2', gsi2pk, eventKeys.listPrefix, (item) => {
      const detail = item.detail as EventDetail<unknown>;
      add(dayOf(detail.created_at), { [counter]: 1 });
      summary[counter] += 1;
    });
  }

  const gauge: Record<string, number> = { active: 0 };
  const subscriptionItems: Record<string, unknown>[] = [];
  const expiresAt = Math.floor(deps.clock().getTime() / 1000) + markerRetentionDays * 86_400;
  await eachSubscription(deps, scope, {}, (subscription) => {
    const key = statsKeys.subscription(developerId, mode, subscription.id);
    const owner = {
      entity: statsEntities.subscription,
      developer_id: developerId,
      mode,
      subscription_id: subscription.id,
    };
    if (!countedStatuses.includes(subscription.status)) {
      // Marked uncounted, so a late delivery of its activation counts nothing.
      if (subscription.status === 'canceled')
        subscriptionItems.push({ ...key, ...owner, counted: false, expires_at: expiresAt });
      return;
    }
    const weight = weightOf({ ...subscription.plan, quantity: subscription.quantity });
    gauge.active = (gauge.active ?? 0) + 1;
    gauge[mrrAttribute(weight)] = (gauge[mrrAttribute(weight)] ?? 0) + weight.amount;
    subscriptionItems.push({ ...key, ...owner, counted: true, ...weight });
  });
  summary.active_subscriptions = gauge.active ?? 0;

  // Days counted before that the records no longer show are emptied, not left as they were.
  await queryEach(
    deps,
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': statsKeys.partition(developerId, mode),
        ':prefix': statsKeys.daySort(''),
      },
      ProjectionExpression: '#day',
      ExpressionAttributeNames: { '#day': 'day' },
    },
    (item) => {
      if (!days.has(String(item.day))) days.set(String(item.day), {});
      return true;
    },
  );

  const owner = { developer_id: developerId, mode };
  const items = [
    ...[...days].map(([day, figures]) => ({
      ...statsKeys.day(developerId, mode, day),
      entity: statsEntities.day,
      ...owner,
      day,
      ...figures,
    })),
    { ...statsKeys.gauge(developerId, mode), entity: statsEntities.gauge, ...owner, ...gauge },
    ...subscriptionItems,
  ];
  await putAll(deps, items);
  summary.days = days.size;
  return summary;
}

/** Recomputes an account's counters in both modes. */
export async function rebuildStats(deps: Deps, developerId: number): Promise<Record<string, RebuildSummary>> {
  const summaries: Record<string, RebuildSummary> = {};
  for (const mode of ['test', 'live'] as const satisfies readonly Mode[])
    summaries[mode] = await rebuildScope(deps, { developerId, mode });
  return summaries;
}
