/**
 * Target of `plan.deleted`: asks for the cancellation of every running subscription of the plan,
 * one internal event each, so each is canceled on its own (cancel-requested-subscription.ts).
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { observed } from '../../shared/core/invocation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { scopeOfEvent } from '../../shared/events/event.ts';
import { planDeleted } from '../../shared/plans/events.ts';
import { requestPlanCancellations } from '../../shared/subscriptions/service.ts';

const deps = makeDeps();

export const handler = observed(async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const detail = planDeleted.read(event.detail);
  await requestPlanCancellations(deps, scopeOfEvent(detail), detail.data.object.key);
});
