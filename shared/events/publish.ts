/**
 * Entries onto the EventBridge bus, for the outbox relay (shared/events/outbox.ts) and the webhook
 * retry sweep: handlers store events, they never send them. Every event's detail has one shape, so rule targets
 * (webhooks, e-mail) read the same fields whatever the type.
 */
import {
  EventBridgeClient,
  PutEventsCommand,
  type PutEventsCommandOutput,
} from '@aws-sdk/client-eventbridge';
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

/**
 * The index of the first entry a PutEvents answer did not accept, or -1 when it took them all. The
 * first entry carrying an ErrorCode is the first refused, whatever FailedEntryCount says. A
 * FailedEntryCount above 0 with no entry carrying an ErrorCode (Entries left out, or none marked)
 * does not say which were refused, so it counts as the first entry refused: all of them are sent
 * again rather than one lost.
 */
export function firstRefused(result: Pick<PutEventsCommandOutput, 'FailedEntryCount' | 'Entries'>): number {
  const marked = (result.Entries ?? []).findIndex((entry) => typeof entry.ErrorCode === 'string');
  if (marked >= 0) return marked;
  return (result.FailedEntryCount ?? 0) > 0 ? 0 : -1;
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
      return firstRefused(result);
    },
  };
}
