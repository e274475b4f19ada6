/**
 * The overview's counters in the table (docs/design.md#dashboard-overview-counters): each event
 * counted exactly once, although the bus may deliver it more than once, by a transaction of a
 * conditional marker (the event's id, expiring) and the additions; the overview read in at most two
 * round trips, whatever the number of charges.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { failedConditions, type NamedItem, named, type TransactItem, transactNamed } from '../db/transact.ts';
import {
  activeOf,
  addFigures,
  type DayAdditions,
  type DayFigures,
  dayFiguresOf,
  daysEnding,
  emptyDay,
  exactMrr,
  mrrAttribute,
  roundedMinor,
  type SubscriptionWeight,
} from './counters.ts';
import { statsKeys } from './keys.ts';

/** Entity tags of the counters' items. */
export const statsEntities = {
  day: 'stats_day',
  gauge: 'stats_gauge',
  subscription: 'stats_subscription',
  counted: 'stats_counted',
} as const;

/**
 * How long an event's marker (and a canceled subscription's) is kept: far longer than the bus and
 * Lambda retry an event (24 hours at most), so a second delivery always finds it.
 */
export const markerRetentionDays = 7;

const expiresAt = (now: Date) => Math.floor(now.getTime() / 1000) + markerRetentionDays * 86_400;

/** The marker that an event was counted: refused when it already was. */
function countedMarker(table: string, eventId: string, scope: Scope, now: Date): TransactItem {
  return {
    Put: {
      TableName: table,
      Item: {
        ...statsKeys.counted(eventId),
        entity: statsEntities.counted,
        developer_id: scope.developerId,
        mode: scope.mode,
        expires_at: expiresAt(now),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** ADD of every addition to one item (made when missing), with its tag and owner. */
function additionsTo(
  table: string,
  key: { pk: string; sk: string },
  entity: string,
  scope: Scope,
  additions: DayAdditions,
  extra: Record<string, unknown> = {},
): TransactItem {
  const names: Record<string, string> = {
    '#entity': 'entity',
    '#developer': 'developer_id',
    '#mode': 'mode',
  };
  const values: Record<string, unknown> = {
    ':entity': entity,
    ':developer': scope.developerId,
    ':mode': scope.mode,
  };
  const adds = Object.entries(additions).map(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    return `#a${index} :a${index}`;
  });
  const sets = ['#entity = :entity', '#developer = :developer', '#mode = :mode'];
  Object.entries(extra).forEach(([name, value], index) => {
    names[`#s${index}`] = name;
    values[`:s${index}`] = value;
    sets.push(`#s${index} = :s${index}`);
  });
  return {
    Update: {
      TableName: table,
      Key: key,
      UpdateExpression: `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** Runs a transaction whose `event` item is the marker; false when the event was counted before. */
async function once<N extends string>(
  deps: Deps,
  items: readonly NamedItem<'event' | N>[],
): Promise<{ counted: true } | { counted: false; refused: Set<'event' | N> }> {
  try {
    await transactNamed(deps, items);
    return { counted: true };
  } catch (error) {
    const refused = failedConditions(error, items);
    if (refused.size === 0) throw error;
    return { counted: false, refused: new Set(refused.keys()) };
  }
}

/**
 * Adds to a day's counters what one event says (a charge, a refund, a decline, a failed renewal),
 * once: false when this event was counted before.
 */
export async function countDay(
  deps: Deps,
  scope: Scope,
  event: { id: string; day: string },
  additions: DayAdditions,
): Promise<boolean> {
  const now = deps.clock();
  const key = statsKeys.day(scope.developerId, scope.mode, event.day);
  const result = await once(deps, [
    ...named('event', countedMarker(deps.table, event.id, scope, now)),
    ...named('day', additionsTo(deps.table, key, statsEntities.day, scope, additions, { day: event.day })),
  ]);
  return result.counted;
}

/**
 * Counts an activated subscription in the gauge (one more active, its weight in the recurring
 * revenue), once, and records what it added. Nothing when its cancellation came first (the bus does
 * not keep order) or the rebuild already counted it.
 */
export async function countActivation(
  deps: Deps,
  scope: Scope,
  eventId: string,
  subscriptionId: string,
  weight: SubscriptionWeight,
): Promise<boolean> {
  const now = deps.clock();
  const result = await once(deps, [
    ...named('event', countedMarker(deps.table, eventId, scope, now)),
    ...named('subscription', {
      Put: {
        TableName: deps.table,
        Item: {
          ...statsKeys.subscription(scope.developerId, scope.mode, subscriptionId),
          entity: statsEntities.subscription,
          developer_id: scope.developerId,
          mode: scope.mode,
          subscription_id: subscriptionId,
          counted: true,
          ...weight,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    ...named(
      'gauge',
      additionsTo(deps.table, statsKeys.gauge(scope.developerId, scope.mode), statsEntities.gauge, scope, {
        active: 1,
        [mrrAttribute(weight)]: weight.amount,
      }),
    ),
  ]);
  return result.counted;
}

/**
 * Takes a canceled subscription out of the gauge: exactly what its activation added, once; nothing
 * for one never counted (canceled before its checkout, or before its activation arrived: then it is
 * marked so, and that activation counts nothing).
 */
export async function countCancellation(
  deps: Deps,
  scope: Scope,
  eventId: string,
  subscriptionId: string,
): Promise<boolean> {
  const now = deps.clock();
  const key = statsKeys.subscription(scope.developerId, scope.mode, subscriptionId);
  const read = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
  const item = read.Item;
  const marker = named('event', countedMarker(deps.table, eventId, scope, now));
  if (!item) {
    const result = await once(deps, [
      ...marker,
      ...named('subscription', {
        Put: {
          TableName: deps.table,
          Item: {
            ...key,
            entity: statsEntities.subscription,
            developer_id: scope.developerId,
            mode: scope.mode,
            subscription_id: subscriptionId,
            counted: false,
            expires_at: expiresAt(now),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      }),
    ]);
    // Its activation counted it meanwhile: take it out now.
    if (!result.counted && !result.refused.has('event'))
      return countCancellation(deps, scope, eventId, subscriptionId);
    return result.counted;
  }
  if (item.counted !== true) return false;
  const weight = {
    currency: String(item.currency),
    months: Number(item.months),
    amount: Number(item.amount),
  };
  const result = await once(deps, [
    ...marker,
    ...named('subscription', {
      Update: {
        TableName: deps.table,
        Key: key,
        UpdateExpression: 'SET counted = :false, expires_at = :expires',
        ConditionExpression: 'counted = :true',
        ExpressionAttributeValues: { ':false': false, ':true': true, ':expires': expiresAt(now) },
      },
    }),
    ...named(
      'gauge',
      additionsTo(deps.table, statsKeys.gauge(scope.developerId, scope.mode), statsEntities.gauge, scope, {
        active: -1,
        [mrrAttribute(weight)]: -weight.amount,
      }),
    ),
  ]);
  return result.counted;
}

/** The dashboard's overview of an account in a mode: the last 30 UTC days, and what holds now. */
export interface Overview {
  /** The days, oldest first, today last; a day with nothing counted is zeros. */
  days: DayFigures[];
  /** The days added up (its `day` is the first day of the window). */
  totals: DayFigures;
  active_subscriptions: number;
  /** Monthly recurring revenue by upper-case currency, in minor units rounded half up. */
  mrr: Record<string, number>;
  /** The same, exact: minor units times `mrrScale` (counters.ts). */
  mrrExact: Record<string, bigint>;
}

/** The overview of an account with nothing counted: 30 days of zeros. */
export function emptyOverview(now: Date): Overview {
  const days = daysEnding(now).map(emptyDay);
  return { days, totals: emptyDay(days[0]?.day ?? ''), active_subscriptions: 0, mrr: {}, mrrExact: {} };
}

/**
 * The overview at `now`: the window's day items in one Query and the gauge in one Get, both at
 * once, so its cost stays flat however many charges the account has.
 */
export async function overview(deps: Deps, scope: Scope, now: Date): Promise<Overview> {
  const window = daysEnding(now);
  const first = window[0] as string;
  const last = window[window.length - 1] as string;
  const [days, gauge] = await Promise.all([
    deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
        ExpressionAttributeValues: {
          ':pk': statsKeys.partition(scope.developerId, scope.mode),
          ':first': statsKeys.daySort(first),
          ':last': statsKeys.daySort(last),
        },
      }),
    ),
    deps.db.send(
      new GetCommand({ TableName: deps.table, Key: statsKeys.gauge(scope.developerId, scope.mode) }),
    ),
  ]);
  // 30 small items stay far below a Query page's 1 MB: one page holds them all.
  const byDay = new Map((days.Items ?? []).map((item) => [String(item.day), item]));
  const figures = window.map((day) => dayFiguresOf(day, byDay.get(day)));
  const exact = exactMrr(gauge.Item);
  return {
    days: figures,
    totals: figures.reduce(addFigures, emptyDay(first)),
    active_subscriptions: activeOf(gauge.Item),
    mrr: Object.fromEntries([...exact].map(([code, scaled]) => [code, roundedMinor(scaled)])),
    mrrExact: Object.fromEntries(exact),
  };
}
