/** Target of the internal `subscription.cancel_requested`: cancels that one subscription (retried safely). */
import type { EventBridgeEvent } from 'aws-lambda';
import { observed } from '../../shared/core/invocation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { scopeOfEvent } from '../../shared/events/event.ts';
import { subscriptionCancelRequested } from '../../shared/subscriptions/events.ts';
import { cancelRequested } from '../../shared/subscriptions/service.ts';

const deps = makeDeps();

export const handler = observed(async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const detail = subscriptionCancelRequested.read(event.detail);
  await cancelRequested(deps, scopeOfEvent(detail), {
    subscriptionId: detail.data.subscription_id,
    reason: detail.data.reason,
  });
});
