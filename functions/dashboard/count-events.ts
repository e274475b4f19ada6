/**
 * Target of the events the dashboard's overview counts (charges, refunds, declines, failed renewals,
 * subscriptions activated and canceled): adds each to its account's counters, once, however often
 * the bus delivers it.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { observed } from '../../shared/core/invocation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import type { EventDetail } from '../../shared/events/event.ts';
import { countEvent } from '../../shared/stats/count.ts';

const deps = makeDeps();

export const handler = observed(async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  await countEvent(deps, event.detail as EventDetail<unknown>);
});
