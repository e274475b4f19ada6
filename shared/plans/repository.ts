/**
 * Plans in the single table. Each plan is its own item under its account and mode; gsi1 lists an
 * account's plans newest first, with the plan count (kept in the same transactions that create and
 * delete plans) sorted in front of them, so page 1 of a list is one Query.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Account } from '../accounts/repository.ts';
import type { Scope } from '../core/account.ts';
import { BadRequest, NotFound } from '../core/errors.ts';
import { assertPageExists, type PageRequest } from '../core/pagination.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getItems } from '../db/get-items.ts';
import { queryEach, recordOf } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { conditionFailedAt, transactWrite } from '../db/transact.ts';
import { type EventDetail, eventWrite } from '../events/event.ts';
import { hasFilters, type PlanFilters, type PlanListQuery } from './list-query.ts';
import type { Plan, PlanChanges } from './plan.ts';

/** Whose plans: an account in one mode. */
const indexName = 'gsi1';
const notFound = () => new NotFound('plan_not_found');

/** A plan, in its account's list (gsi1, newest first). */
export const planEntity = defineEntity<Plan>('plan', (plan) => ({
  ...keys.plan(plan.developer_id, plan.mode, plan.id),
  ...keys.planInList(plan.developer_id, plan.mode, plan.created_at, plan.id),
}));

const fromItem = (item: Record<string, unknown>) => recordOf<Plan>(item);

/** Adds `by` to the account's plan count, as one item of a transaction. */
export function planCountUpdate(deps: Deps, scope: Scope, by: number, now: string) {
  const { pk, sk, gsi1pk, gsi1sk } = keys.planCount(scope.developerId, scope.mode);
  return {
    Update: {
      TableName: deps.table,
      Key: { pk, sk },
      UpdateExpression:
        'ADD plan_count :by SET gsi1pk = :gpk, gsi1sk = :gsk, entity = :entity, developer_id = :dev, #mode = :mode, updated_at = :now, created_at = if_not_exists(created_at, :now)',
      ExpressionAttributeNames: { '#mode': 'mode' },
      ExpressionAttributeValues: {
        ':by': by,
        ':gpk': gsi1pk,
        ':gsk': gsi1sk,
        ':entity': 'plan_count',
        ':dev': scope.developerId,
        ':mode': scope.mode,
        ':now': now,
      },
    },
  };
}

/** Stores a new plan and counts it, in one transaction. */
export async function createPlan(deps: Deps, plan: Plan): Promise<void> {
  const scope = { developerId: plan.developer_id, mode: plan.mode };
  await transactWrite(deps, [
    planEntity.create(deps.table, plan),
    planCountUpdate(deps, scope, 1, plan.created_at),
  ]);
}

/** The plan (strongly consistent), or undefined when the account has none with this id in this mode. */
export function getPlan(deps: Deps, scope: Scope, planId: string): Promise<Plan | undefined> {
  return planEntity.get(deps, keys.plan(scope.developerId, scope.mode, planId));
}

/** The plan and the account whose profile it shows, in one BatchGetItem; NotFound when there is no plan. */
export async function getPlanWithAccount(
  deps: Deps,
  scope: Scope,
  planId: string,
): Promise<{ plan: Plan; account: Account | undefined }> {
  const [planItem, accountItem] = await getItems(deps, [
    keys.plan(scope.developerId, scope.mode, planId),
    keys.account(scope.developerId),
  ]);
  if (!planItem) throw notFound();
  return { plan: fromItem(planItem), account: accountItem as Account | undefined };
}

/** DynamoDB filter for the plan filters (all combine with AND). */
function filterOf(
  filters: PlanFilters,
): Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const add = (clause: string, attribute: string, value: unknown, placeholder: string) => {
    clauses.push(clause.replace('#a', `#${attribute}`).replace(':v', `:${placeholder}`));
    names[`#${attribute}`] = attribute;
    values[`:${placeholder}`] = value;
  };
  if (filters.name !== undefined) add('contains(#a, :v)', 'name_search', filters.name, 'name');
  if (filters.priceMin !== undefined) add('#a >= :v', 'amount_scaled', filters.priceMin, 'price_min');
  if (filters.priceMax !== undefined) add('#a <= :v', 'amount_scaled', filters.priceMax, 'price_max');
  if (filters.interval !== undefined) add('#a = :v', 'interval', filters.interval, 'interval');
  if (filters.intervalCount !== undefined) add('#a = :v', 'interval_count', filters.intervalCount, 'count');
  if (filters.subscribersMin !== undefined)
    add('#a >= :v', 'subscriber_count', filters.subscribersMin, 'subs_min');
  if (filters.subscribersMax !== undefined)
    add('#a <= :v', 'subscriber_count', filters.subscribersMax, 'subs_max');
  if (filters.trialDays !== undefined) add('#a = :v', 'trial_period_days', filters.trialDays, 'trial');
  if (filters.active !== undefined) add('#a = :v', 'active', filters.active, 'active');
  return {
    FilterExpression: clauses.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * Reads the list index backwards (newest first) from the top, handing each item to `visit` until it
 * answers false or the list ends. `limit` bounds the items the next Query call evaluates.
 */
async function walk(
  deps: Deps,
  scope: Scope,
  options: { prefix: string; limit?: () => number; filters?: PlanFilters },
  visit: (item: Record<string, unknown>) => boolean,
): Promise<void> {
  const { gsi1pk } = keys.planCount(scope.developerId, scope.mode);
  const filter = options.filters ? filterOf(options.filters) : undefined;
  await queryEach(
    deps,
    {
      IndexName: indexName,
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ...filter,
      ExpressionAttributeNames: filter?.ExpressionAttributeNames,
      ExpressionAttributeValues: {
        ':pk': gsi1pk,
        ':prefix': options.prefix,
        ...filter?.ExpressionAttributeValues,
      },
      ScanIndexForward: false,
    },
    visit,
    options.limit,
  );
}

/** Unfiltered: the count and page 1 in one Query; a deeper page reads on past the earlier ones. */
async function listAll(deps: Deps, scope: Scope, page: PageRequest) {
  const offset = (page.page - 1) * page.pageSize;
  let count: number | undefined;
  let seen = 0;
  const plans: Plan[] = [];
  // The first call reads the count and page 1; later ones only what the asked page still needs.
  const limit = () => (count === undefined ? page.pageSize + 1 : offset + page.pageSize - seen);
  await walk(deps, scope, { prefix: keys.planListPrefix.withCount, limit }, (item) => {
    if (item.entity === 'plan_count') {
      count = Number(item.plan_count ?? 0);
      assertPageExists(count, page); // before reading anything past the first call
      return true;
    }
    count ??= 0;
    if (seen >= offset) plans.push(fromItem(item));
    seen += 1;
    return plans.length < page.pageSize;
  });
  count ??= 0;
  assertPageExists(count, page);
  return { count, plans };
}

/** Filtered: reads the account's plans once, counting every match and keeping only the page asked for. */
async function listFiltered(deps: Deps, scope: Scope, page: PageRequest, filters: PlanFilters) {
  const offset = (page.page - 1) * page.pageSize;
  let count = 0;
  const plans: Plan[] = [];
  await walk(deps, scope, { prefix: keys.planListPrefix.plansOnly, filters }, (item) => {
    if (count >= offset && plans.length < page.pageSize) plans.push(fromItem(item));
    count += 1;
    return true;
  });
  if (count === 0) throw new BadRequest('plan_filters_no_match', { type: 'warning' });
  assertPageExists(count, page);
  return { count, plans };
}

/** One page of the account's plans, newest first, with the number of plans the query matches. */
export function listPlans(
  deps: Deps,
  scope: Scope,
  query: PlanListQuery,
): Promise<{ count: number; plans: Plan[] }> {
  return hasFilters(query.filters)
    ? listFiltered(deps, scope, query.page, query.filters)
    : listAll(deps, scope, query.page);
}

/** Applies changes to a plan that exists; answers the plan as stored afterwards. */
export async function updatePlan(
  deps: Deps,
  scope: Scope,
  planId: string,
  changes: PlanChanges,
  now: Date,
): Promise<Plan> {
  const fields: Record<string, unknown> = { ...changes, updated_at: now.toISOString() };
  if (changes.name !== undefined) fields.name_search = changes.name.toLowerCase();
  const entries = Object.entries(fields);
  try {
    const result = await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: keys.plan(scope.developerId, scope.mode, planId),
        UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return fromItem(result.Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) throw notFound();
    throw error;
  }
}

/**
 * Deletes a plan, uncounts it and records the event that reports it, in one transaction: the
 * `plan.deleted` that cancels its subscriptions cannot be lost once the plan is gone.
 */
export async function deletePlan(deps: Deps, plan: Plan, event: EventDetail<unknown>): Promise<void> {
  const scope = { developerId: plan.developer_id, mode: plan.mode };
  try {
    await transactWrite(deps, [
      {
        Delete: {
          TableName: deps.table,
          Key: keys.plan(plan.developer_id, plan.mode, plan.id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      planCountUpdate(deps, scope, -1, event.created_at),
      eventWrite(deps.table, event),
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) throw notFound();
    throw error;
  }
}
