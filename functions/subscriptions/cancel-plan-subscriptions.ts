/** Target of `plan.deleted`: cancels every running subscription of the plan, each on its own (D14). */
import type { EventBridgeEvent } from 'aws-lambda';
import { makeDeps } from '../../shared/db/deps.ts';
import { planDeleted } from '../../shared/plans/events.ts';
import { cancelPlanSubscriptions } from '../../shared/subscriptions/service.ts';

const deps = makeDeps();

export const handler = async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const detail = planDeleted.read(event.detail);
  await cancelPlanSubscriptions(
    deps,
    { developerId: detail.developer_id, mode: detail.test ? 'test' : 'live' },
    detail.data.object.key,
  );
};
