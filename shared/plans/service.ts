/** Plan operations that span storage and events. */
import type { Scope } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { planDeletedEvent } from './events.ts';
import { deletePlan, getPlanWithAccount } from './repository.ts';

/**
 * Removes a plan for good. `plan.deleted` (which cancels its active subscriptions and tells their
 * customers) is stored in the deletion's transaction; the table's stream takes it to the bus.
 */
export async function removePlan(
  deps: Deps & { baseUrl: string },
  scope: Scope,
  planId: string,
): Promise<void> {
  const { plan, account: owner } = await getPlanWithAccount(deps, scope, planId);
  const detail = planDeletedEvent(plan, owner, deps.baseUrl, deps.clock());
  await deletePlan(deps, plan, detail);
}
