/**
 * Target of `plan.deleted`: asks for the cancellation of every running subscription of the plan,
 * one internal event each, so each is canceled on its own (cancel-requested-subscription.ts).
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { makeDeps } from '../../shared/db/deps.ts';
import { planDeleted } from '../../shared/plans/events.ts';
import { requestPlanCancellations } from '../../shared/subscriptions/service.ts';

const deps = makeDeps();

export const handler = async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const detail = planDeleted.read(event.detail);
  await requestPlanCancellations(
    deps,
    { developerId: detail.developer_id, mode: detail.test ? 'test' : 'live' },
    detail.data.object.key,
  );
};
