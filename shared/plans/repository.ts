/**
 * Plans in the single table. Each plan is its own item under its account and mode; gsi1 lists an
 * account's plans newest first, with the plan count (kept in the same transactions that create and
 * delete plans) sorted in front of them, so page 1 of a list is one Query.
 */

import { accountKeys } from '../accounts/keys.ts';
import type { Account } from '../accounts/repository.ts';
import { type Scope, scopeOf } from '../core/account.ts';
import { Invalid, NotFound } from '../core/errors.ts';
import { assertPageExists, type PageRequest } from '../core/pagination.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getItems } from '../db/get-items.ts';
import { recordOf } from '../db/items.ts';
import {
  type AttributeFilter,
  countedList,
  countedPage,
  countUpdate,
  filteredRecords,
  pageOfMatches,
  recordsByKeys,
} from '../db/lists.ts';
import { retryOptimistic } from '../db/optimistic.ts';
import { searchIndex, searchIndexWrites, writeWithIndex } from '../db/search.ts';
import { type EventDetail, eventWrite } from '../events/event.ts';
import { planKeys } from './keys.ts';
import { hasFilters, matchesFilters, type PlanFilters, type PlanListQuery } from './list-query.ts';
import { planMessages } from './messages.ts';
import type { Plan, PlanChanges } from './plan.ts';

const notFound = () => new NotFound(planMessages.plan_not_found);

/** A plan, in its account's list (gsi1, newest first). */
export const planEntity = defineEntity<Plan>('plan', (plan) => ({
  ...planKeys.plan(plan.developer_id, plan.mode, plan.id),
  ...planKeys.inList(plan.developer_id, plan.mode, plan.created_at, plan.id),
}));

const fromItem = (item: Record<string, unknown>) => recordOf<Plan>(item);

/** Where an account's plans are listed and counted (gsi1). */
const planList = (scope: Scope) =>
  countedList(planKeys.count(scope.developerId, scope.mode), 'plan', planKeys.listTag);

/** Adds `by` to the account's plan count, as one item of a transaction. */
export const planCountUpdate = (deps: Deps, scope: Scope, by: number, now: string) =>
  countUpdate(deps, planList(scope), scope, by, now);

/** The plans' substring index (shared/db/search.ts): names. */
const searchScope = (scope: Scope) => ({ ...scope, kind: 'plan' });
export const nameIndexWrites = (deps: Deps, plan: Plan, before: string[], after: string[]) =>
  searchIndexWrites(
    deps.table,
    searchScope(scopeOf(plan)),
    { id: plan.id, createdAt: plan.created_at },
    before,
    after,
  );

/** Stores a new plan, counts it and indexes its name, in one transaction. */
export async function createPlan(deps: Deps, plan: Plan): Promise<void> {
  const scope = scopeOf(plan);
  await writeWithIndex(
    deps,
    [planEntity.create(deps.table, plan), planCountUpdate(deps, scope, 1, plan.created_at)],
    nameIndexWrites(deps, plan, [], [plan.name]),
  );
}

/** The plan (strongly consistent), or undefined when the account has none with this id in this mode. */
export function getPlan(deps: Deps, scope: Scope, planId: string): Promise<Plan | undefined> {
  return planEntity.get(deps, planKeys.plan(scope.developerId, scope.mode, planId));
}

/** The plan and the account whose profile it shows, in one BatchGetItem; NotFound when there is no plan. */
export async function getPlanWithAccount(
  deps: Deps,
  scope: Scope,
  planId: string,
): Promise<{ plan: Plan; account: Account | undefined }> {
  const [planItem, accountItem] = await getItems(deps, [
    planKeys.plan(scope.developerId, scope.mode, planId),
    accountKeys.account(scope.developerId),
  ]);
  if (!planItem) throw notFound();
  return { plan: fromItem(planItem), account: accountItem as Account | undefined };
}

/** The plan filters but the name, as a DynamoDB filter (all combine with AND). */
const filterOf = (filters: PlanFilters): AttributeFilter => [
  ['>=', 'amount_scaled', filters.priceMin],
  ['<=', 'amount_scaled', filters.priceMax],
  ['=', 'interval', filters.interval],
  ['=', 'interval_count', filters.intervalCount],
  ['>=', 'subscriber_count', filters.subscribersMin],
  ['<=', 'subscriber_count', filters.subscribersMax],
  ['=', 'trial_period_days', filters.trialDays],
  ['=', 'active', filters.active],
];

/**
 * The page of the matches; no match at all is 400 (only the plan list; other lists answer 200 with
 * `count` 0).
 */
function pageOrNoMatch(found: { count: number; records: Plan[] }, page: PageRequest) {
  if (found.count === 0) throw new Invalid(planMessages.plan_filters_no_match);
  assertPageExists(found.count, page);
  return { count: found.count, plans: found.records };
}

const planKeysOf = (scope: Scope, ids: string[]) =>
  ids.map((id) => planKeys.plan(scope.developerId, scope.mode, id));

/**
 * Filtered by name: the name index gives the plans whose names contain it (newest first), so what
 * is read grows with the matches, not with the account's plans. With the name alone only the
 * page's plans are read; with other filters every match is read (100 per call) and filtered.
 */
async function listByName(
  deps: Deps,
  scope: Scope,
  page: PageRequest,
  filters: PlanFilters & { name: string },
) {
  const hits = await searchIndex(deps, searchScope(scope), filters.name);
  const ids = hits.map((hit) => hit.id);
  if (!hasFilters({ ...filters, name: undefined })) {
    const offset = (page.page - 1) * page.pageSize;
    if (hits.length === 0 || offset >= hits.length)
      return pageOrNoMatch({ count: hits.length, records: [] }, page);
    const records = await recordsByKeys<Plan>(
      deps,
      planKeysOf(scope, ids.slice(offset, offset + page.pageSize)),
    );
    return pageOrNoMatch({ count: hits.length, records }, page);
  }
  const matches = pageOfMatches<Plan>(page);
  for (const plan of await recordsByKeys<Plan>(deps, planKeysOf(scope, ids))) {
    if (matchesFilters(plan, filters)) matches.visit(plan);
  }
  return pageOrNoMatch(matches.result, page);
}

/** One page of the account's plans: unfiltered from the counted list, else every match counted. */
async function listFiltered(deps: Deps, scope: Scope, page: PageRequest, filters: PlanFilters) {
  if (filters.name !== undefined) return listByName(deps, scope, page, { ...filters, name: filters.name });
  const matches = pageOfMatches<Plan>(page);
  await filteredRecords<Plan>(deps, planList(scope), filterOf(filters), matches.visit);
  return pageOrNoMatch(matches.result, page);
}

/** One page of the account's plans, newest first, with the number of plans the query matches. */
export function listPlans(
  deps: Deps,
  scope: Scope,
  query: PlanListQuery,
): Promise<{ count: number; plans: Plan[] }> {
  if (hasFilters(query.filters)) return listFiltered(deps, scope, query.page, query.filters);
  return countedPage<Plan>(deps, planList(scope), query.page).then(({ count, records }) => ({
    count,
    plans: records,
  }));
}

/**
 * Applies changes to a plan as it was read; answers the plan as stored afterwards. A new name
 * moves its index entries in the same transaction, on the condition that the name is still the
 * one read; if another update changed it meanwhile, the plan is read again and the change retried.
 */
export function updatePlan(deps: Deps, read: Plan, changes: PlanChanges, now: Date): Promise<Plan> {
  const scope = scopeOf(read);
  return retryOptimistic(async (tryNumber) => {
    // The first try writes on the plan the caller read; a retry reads it again (gone: 404).
    const plan = tryNumber === 1 ? read : await getPlan(deps, scope, read.id);
    if (!plan) throw notFound();
    const fields: Record<string, unknown> = { ...changes, updated_at: now.toISOString() };
    if (changes.name !== undefined) fields.name_search = changes.name.toLowerCase();
    const entries = Object.entries(fields);
    const renamed = changes.name !== undefined && changes.name !== plan.name;
    const update = {
      Update: {
        TableName: deps.table,
        Key: planKeys.plan(scope.developerId, scope.mode, plan.id),
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
    await writeWithIndex(
      deps,
      [update],
      renamed ? nameIndexWrites(deps, plan, [plan.name], [changes.name as string]) : [],
    );
    return { ...plan, ...(fields as Partial<Plan>) };
  });
}

/**
 * Deletes a plan, uncounts it, drops its name from the index and records the event that reports
 * it, in one transaction: the
 * `plan.deleted` that cancels its subscriptions cannot be lost once the plan is gone.
 */
export async function deletePlan(deps: Deps, plan: Plan, event: EventDetail<unknown>): Promise<void> {
  const scope = scopeOf(plan);
  try {
    await writeWithIndex(
      deps,
      [
        {
          Delete: {
            TableName: deps.table,
            Key: planKeys.plan(plan.developer_id, plan.mode, plan.id),
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
