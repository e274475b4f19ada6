/**
 * Subscriptions in the single table: the record, and its entry in the billing due index (an item
 * per subscription with work ahead, keyed by due time), changed together in one transaction
 * conditioned on the version read. That condition is what makes a billing step count once, however
 * many run at once.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../core/account.ts';
import type { PageRequest } from '../core/pagination.ts';
import type { Deps } from '../db/deps.ts';
import { type DueShard, dueEntries } from '../db/due.ts';
import { defineEntity } from '../db/entity.ts';
import { queryEach, recordOf } from '../db/items.ts';
import { indexedPage } from '../db/lists.ts';
import type { Reindexer } from '../db/reindex.ts';
import { failedConditions, named, type TransactItem, transactNamed, transactWrite } from '../db/transact.ts';
import { planKeys } from '../plans/keys.ts';
import { subscriptionKeys } from './keys.ts';
import type { Subscription } from './subscription.ts';

/**
 * A subscription, in its account's and its plan's lists, and in its customer's once it has one: made
 * for a customer, or given one when its checkout is paid (every write puts the whole item again, so
 * the keys follow the record).
 */
export const subscriptionEntity = defineEntity<Subscription>('subscription', (subscription) => ({
  ...subscriptionKeys.subscription(subscription.developer_id, subscription.mode, subscription.id),
  ...subscriptionKeys.inList(
    subscription.developer_id,
    subscription.mode,
    subscription.created_at,
    subscription.id,
  ),
  ...subscriptionKeys.ofPlan(
    subscription.developer_id,
    subscription.mode,
    subscription.plan_id,
    subscription.created_at,
    subscription.id,
  ),
  ...(subscription.customer_id
    ? subscriptionKeys.ofCustomer(
        subscription.developer_id,
        subscription.mode,
        subscription.customer_id,
        subscription.created_at,
        subscription.id,
      )
    : {}),
}));

/**
 * One customer's subscriptions (every status), newest first, a page at a time (one Query of that
 * customer's own index partition: no other customer's subscription is read), and whether more
 * follow the page.
 */
export function listCustomerSubscriptions(
  deps: Deps,
  scope: Scope,
  customerId: string,
  page: PageRequest,
): Promise<{ records: Subscription[]; more: boolean }> {
  const { gsi3pk } = subscriptionKeys.ofCustomer(scope.developerId, scope.mode, customerId, '', '');
  return indexedPage<Subscription>(
    deps,
    { index: 'gsi3', partition: gsi3pk, prefix: subscriptionKeys.listPrefix },
    page,
  );
}

/**
 * For a subscription stored before the customer index existed: the keys that give it its place
 * there (`cobro reindex`), set while its customer is still the one read; none without a customer.
 */
export const subscriptionReindexer: Reindexer = (item) => {
  const subscription = recordOf<Subscription>(item);
  if (!subscription.customer_id) return {};
  return {
    keys: {
      set: {
        ...subscriptionKeys.ofCustomer(
          subscription.developer_id,
          subscription.mode,
          subscription.customer_id,
          subscription.created_at,
          subscription.id,
        ),
      },
      basis: { customer_id: subscription.customer_id },
    },
  };
};

/**
 * The account's subscriptions (of one plan when `planId` is given), newest first, those with
 * `status` when given: every match, handed to `visit`.
 */
export async function eachSubscription(
  deps: Deps,
  scope: Scope,
  filter: { planId?: string | undefined; status?: string | undefined },
  visit: (subscription: Subscription) => void,
): Promise<void> {
  const byPlan = filter.planId !== undefined;
  const partition = byPlan
    ? subscriptionKeys.ofPlan(scope.developerId, scope.mode, filter.planId as string, '', '').gsi2pk
    : subscriptionKeys.inList(scope.developerId, scope.mode, '', '').gsi1pk;
  await queryEach(
    deps,
    {
      IndexName: byPlan ? 'gsi2' : 'gsi1',
      KeyConditionExpression: byPlan ? 'gsi2pk = :pk' : 'gsi1pk = :pk',
      ...(filter.status !== undefined
        ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } }
        : {}),
      ExpressionAttributeValues: {
        ':pk': partition,
        ...(filter.status !== undefined ? { ':status': filter.status } : {}),
      },
      ScanIndexForward: false,
    },
    (item) => {
      visit(recordOf<Subscription>(item));
      return true;
    },
  );
}

/** What a due entry points at. */
export interface DueRef {
  developer_id: number;
  mode: Scope['mode'];
  subscription_id: string;
  due_at: string;
}

function dueEntry(table: string, subscription: Subscription): TransactItem[] {
  if (!subscription.next_action_at) return [];
  const ref: DueRef = {
    developer_id: subscription.developer_id,
    mode: subscription.mode,
    subscription_id: subscription.id,
    due_at: subscription.next_action_at,
  };
  return [
    {
      Put: {
        TableName: table,
        Item: {
          ...subscriptionKeys.due(subscription.id, subscription.next_action_at),
          entity: 'billing_due',
          ...ref,
          created_at: subscription.updated_at,
          updated_at: subscription.updated_at,
        },
      },
    },
  ];
}

/** Stores a new subscription with its due entry. */
export async function storeSubscription(deps: Deps, subscription: Subscription, extra: TransactItem[] = []) {
  await transactWrite(deps, [
    subscriptionEntity.create(deps.table, subscription),
    ...dueEntry(deps.table, subscription),
    ...extra,
  ]);
}

export function getSubscription(deps: Deps, scope: Scope, id: string): Promise<Subscription | undefined> {
  return subscriptionEntity.get(deps, subscriptionKeys.subscription(scope.developerId, scope.mode, id));
}

/**
 * The items that replace `before` with `after` (and move its due entry), conditioned on `before`'s
 * version, for a caller that writes them in its own transaction (the first item is the condition).
 */
export function subscriptionWrites(table: string, before: Subscription, after: Subscription): TransactItem[] {
  const dropOld: TransactItem[] =
    before.next_action_at && before.next_action_at !== after.next_action_at
      ? [{ Delete: { TableName: table, Key: subscriptionKeys.due(before.id, before.next_action_at) } }]
      : [];
  return [
    {
      Put: {
        TableName: table,
        Item: subscriptionEntity.item(after),
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': before.version },
      },
    },
    ...dropOld,
    ...(before.next_action_at !== after.next_action_at ? dueEntry(table, after) : []),
  ];
}

/**
 * Replaces `before` with `after` (and its due entry) with `extra` items, in one transaction
 * conditioned on `before`'s version. False when another writer changed it first (nothing written).
 * `optional` items may be dropped when their own condition fails (a plan deleted meanwhile).
 */
export async function saveSubscription(
  deps: Deps,
  before: Subscription,
  after: Subscription,
  extra: TransactItem[],
  optional: TransactItem[] = [],
): Promise<boolean> {
  const base = [
    ...named('subscription', ...subscriptionWrites(deps.table, before, after)),
    ...named('extra', ...extra),
  ];
  const items = [...base, ...named('optional', ...optional)];
  try {
    await transactNamed(deps, items);
    return true;
  } catch (error) {
    const failed = failedConditions(error, items);
    if (failed.has('subscription')) return false;
    if (failed.size === 1 && failed.has('optional')) {
      try {
        await transactNamed(deps, base);
        return true;
      } catch (retry) {
        // Changed by another writer between the two tries: nothing was written.
        if (failedConditions(retry, base).has('subscription')) return false;
        throw retry;
      }
    }
    throw error;
  }
}

/** Due entries at `now` (at most `limit` per shard), oldest first; of one partition when `shard` is given. */
export const dueSubscriptions = (deps: Deps, now: Date, limit: number, shard?: DueShard) =>
  dueEntries<DueRef>(deps, subscriptionKeys.duePartition, now, limit, undefined, shard);

/** Removes a due entry that no longer matches its subscription (it changed, or is gone). */
export async function dropStaleDue(deps: Deps, ref: DueRef): Promise<void> {
  await deps.db.send(
    new DeleteCommand({ TableName: deps.table, Key: subscriptionKeys.due(ref.subscription_id, ref.due_at) }),
  );
}

/** The plan's active count moved by `by`, as an optional transaction item (the plan may be gone). */
export function planCountChange(deps: Deps, subscription: Subscription, by: 1 | -1): TransactItem {
  return {
    Update: {
      TableName: deps.table,
      Key: planKeys.plan(subscription.developer_id, subscription.mode, subscription.plan_id),
      UpdateExpression: 'SET subscriber_count = subscriber_count + :by',
      ConditionExpression:
        by > 0 ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND subscriber_count > :zero',
      ExpressionAttributeValues: { ':by': by, ...(by < 0 ? { ':zero': 0 } : {}) },
    },
  };
}

/**
 * A condition that `subscription` is still the version read, for a transaction that acts on what it
 * read without writing it (a renewal's attempt, stored only while the terms it charges are current).
 */
export function versionCheck(table: string, subscription: Subscription): TransactItem {
  return {
    ConditionCheck: {
      TableName: table,
      Key: subscriptionKeys.subscription(subscription.developer_id, subscription.mode, subscription.id),
      ConditionExpression: 'version = :read',
      ExpressionAttributeValues: { ':read': subscription.version },
    },
  };
}
