/**
 * Plans in the single table. Each plan is its own item under its account and mode; gsi1 lists an
 * account's plans newest first, with the plan count (kept in the same transactions that create and
 * delete plans) sorted in front of them, so page 1 of a list is one Query.
 */

import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Account } from '../accounts/repository.ts';
import type { Scope } from '../core/account.ts';
import { BadRequest, NotFound } from '../core/errors.ts';
import { assertPageExists, type PageRequest } from '../core/pagination.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getItems } from '../db/get-items.ts';
import { queryEach, recordOf } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { searchIndex, searchIndexWrites, writeWithIndex } from '../db/search.ts';
import { conditionFailedAt } from '../db/transact.ts';
import { type EventDetail, eventWrite } from '../events/event.ts';
import { hasFilters, matchesFilters, type PlanFilters, type PlanListQuery } from './list-query.ts';
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

/** The plans' substring index (shared/db/search.ts): names. */
const searchScope = (scope: Scope) => ({ ...scope, kind: 'plan' });
export const nameIndexWrites = (deps: Deps, plan: Plan, before: string[], after: string[]) =>
  searchIndexWrites(
    deps.table,
    searchScope({ developerId: plan.developer_id, mode: plan.mode }),
    { id: plan.id, createdAt: plan.created_at },
    before,
    after,
  );

/** Stores a new plan, counts it and indexes its name, in one transaction. */
export async function createPlan(deps: Deps, plan: Plan): Promise<void> {
  const scope = { developerId: plan.developer_id, mode: plan.mode };
  await writeWithIndex(
    deps,
    [planEntity.create(deps.table, plan), planCountUpdate(deps, scope, 1, plan.created_at)],
    nameIndexWrites(deps, plan, [], [plan.name]),
  );
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

/** DynamoDB filter for the plan filters but the name (all combine with AND). */
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

/** Counts the matches and keeps the page asked for; no match at all is 400 (D9, plans only). */
function pageOfMatches(page: PageRequest) {
  const offset = (page.page - 1) * page.pageSize;
  const result = { count: 0, plans: [] as Plan[] };
  const visit = (plan: Plan) => {
    if (result.count >= offset && result.plans.length < page.pageSize) result.plans.push(plan);
    result.count += 1;
  };
  const done = () => {
    if (result.count === 0) throw new BadRequest('plan_filters_no_match', { type: 'warning' });
    assertPageExists(result.count, page);
    return result;
  };
  return { visit, done };
}

/**
 * Filtered by name: the name index gives the plans whose names contain it (newest first), so what
 * is read grows with the matches, not with the account's plans; their records are read 100 at a
 * time and the other filters applied to them.
 */
async function listByName(
  deps: Deps,
  scope: Scope,
  page: PageRequest,
  filters: PlanFilters & { name: string },
) {
  const hits = await searchIndex(deps, searchScope(scope), filters.name);
  if (!hasFilters({ ...filters, name: undefined })) {
    // The name alone: the index already has the count and the order; only the page is read.
    if (hits.length === 0) throw new BadRequest('plan_filters_no_match', { type: 'warning' });
    assertPageExists(hits.length, page);
    const offset = (page.page - 1) * page.pageSize;
    const wanted = hits.slice(offset, offset + page.pageSize);
    const items = await getItems(
      deps,
      wanted.map((hit) => keys.plan(scope.developerId, scope.mode, hit.id)),
    );
    return { count: hits.length, plans: items.flatMap((item) => (item ? [fromItem(item)] : [])) };
  }
  const matches = pageOfMatches(page);
  for (let start = 0; start < hits.length; start += 100) {
    const chunk = hits.slice(start, start + 100);
    const items = await getItems(
      deps,
      chunk.map((hit) => keys.plan(scope.developerId, scope.mode, hit.id)),
    );
    for (const item of items) {
      if (!item) continue; // deleted between the index read and this one
      const plan = fromItem(item);
      if (matchesFilters(plan, filters)) matches.visit(plan);
    }
  }
  return matches.done();
}

/** Filtered otherwise: reads the account's plans once, counting every match. */
async function listFiltered(deps: Deps, scope: Scope, page: PageRequest, filters: PlanFilters) {
  if (filters.name !== undefined) return listByName(deps, scope, page, { ...filters, name: filters.name });
  const matches = pageOfMatches(page);
  await walk(deps, scope, { prefix: keys.planListPrefix.plansOnly, filters }, (item) => {
    matches.visit(fromItem(item));
    return true;
  });
  return matches.done();
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

/**
 * Applies changes to a plan as it was read; answers the plan as stored afterwards. A new name
 * moves its index entries in the same transaction, on the condition that the name is still the
 * one read; if another update changed it meanwhile, the plan is read again and the change retried.
 */
export async function updatePlan(deps: Deps, read: Plan, changes: PlanChanges, now: Date): Promise<Plan> {
  const scope = { developerId: read.developer_id, mode: read.mode };
  let plan: Plan | undefined = read;
  for (let attempt = 1; plan; attempt++) {
    const fields: Record<string, unknown> = { ...changes, updated_at: now.toISOString() };
    if (changes.name !== undefined) fields.name_search = changes.name.toLowerCase();
    const entries = Object.entries(fields);
    const renamed = changes.name !== undefined && changes.name !== plan.name;
    const update = {
      Update: {
        TableName: deps.table,
        Key: keys.plan(scope.developerId, scope.mode, plan.id),
        UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
        ConditionExpression: renamed ? 'attribute_exists(pk) AND #seen = :seen' : 'attribute_exists(pk)',
        ExpressionAttributeNames: {
          ...Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
          ...(renamed ? { '#seen': 'name' } : {}),
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
          ...(renamed ? { ':seen': plan.name } : {}),
        },
      },
    };
    try {
      await writeWithIndex(
        deps,
        [update],
        renamed ? nameIndexWrites(deps, plan, [plan.name], [changes.name as string]) : [],
      );
      return { ...plan, ...(fields as Partial<Plan>) };
    } catch (error) {
      if (!conditionFailedAt(error).includes(0) || attempt === 10) throw error;
      plan = await getPlan(deps, scope, plan.id);
    }
  }
  throw notFound();
}

/**
 * Deletes a plan, uncounts it, drops its name from the index and records the event that reports
 * it, in one transaction: the
 * `plan.deleted` that cancels its subscriptions cannot be lost once the plan is gone.
 */
export async function deletePlan(deps: Deps, plan: Plan, event: EventDetail<unknown>): Promise<void> {
  const scope = { developerId: plan.developer_id, mode: plan.mode };
  try {
    await writeWithIndex(
      deps,
      [
        {
          Delete: {
            TableName: deps.table,
            Key: keys.plan(plan.developer_id, plan.mode, plan.id),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        planCountUpdate(deps, scope, -1, event.created_at),
        eventWrite(deps.table, event),
      ],
      nameIndexWrites(deps, plan, [plan.name], []),
    );
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) throw notFound();
    throw error;
  }
}
