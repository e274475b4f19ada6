/** Target of every cobro event: one delivery task per endpoint of its account and mode that takes it. */
import type { EventBridgeEvent } from 'aws-lambda';
import { observed } from '../../shared/core/invocation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import type { EventDetail } from '../../shared/events/event.ts';
import { fanOut } from '../../shared/webhooks/delivery.ts';

const deps = makeDeps();

export const handler = observed(
  async (event: EventBridgeEvent<string, EventDetail<unknown>>): Promise<void> => {
    await fanOut(deps, event.detail);
  },
);
