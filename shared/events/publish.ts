/**
 * Entries onto the EventBridge bus, for the outbox relay (shared/events/outbox.ts) and the webhook
 * retry sweep: handlers store events, they never send them. Every event's detail has one shape, so rule targets
 * (webhooks, e-mail) read the same fields whatever the type.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { envNames, requireEnv } from '../core/config.ts';

/** PutEvents takes at most this many entries per call. */
export const putEventsBatch = 10;

export interface BusPublisher {
  /**
   * Sends up to `putEventsBatch` entries in one call; answers the index of the first entry the bus
   * did not accept, or -1 when it took them all. A bus it cannot reach throws.
   */
  send(entries: readonly { source: string; type: string; detail: unknown; time?: Date }[]): Promise<number>;
}

/** A publisher on the stage's bus; the client is made once per process. */
export function busPublisher(): BusPublisher {
  const client = new EventBridgeClient({});
  const busName = requireEnv(envNames.eventBus);
  return {
    async send(entries) {
      if (entries.length === 0) return -1;
      const result = await client.send(
        new PutEventsCommand({
          Entries: entries.map((entry) => ({
            EventBusName: busName,
            Source: entry.source,
            DetailType: entry.type,
            Detail: JSON.stringify(entry.detail),
            ...(entry.time ? { Time: entry.time } : {}),
          })),
        }),
      );
      if (!result.FailedEntryCount) return -1;
      return (result.Entries ?? []).findIndex((entry) => entry.ErrorCode !== undefined);
    },
  };
}
