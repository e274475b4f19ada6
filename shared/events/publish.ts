/**
 * Domain events onto the EventBridge bus. Every event's detail has one shape, so rule targets
 * (webhooks, e-mail) read the same fields whatever the type. An event that money or customers
 * depend on is first written as an item in the same transaction as the change it reports
 * (`eventItem`), then sent: the record survives a bus that is briefly unreachable.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { envNames, requireEnv } from '../core/config.ts';
import { logger } from '../core/log.ts';
import { type EventDetail, eventSource } from './event.ts';

export interface EventPublisher {
  /** Sends an event already built and stored beside the change it reports. */
  send(detail: EventDetail<unknown>): Promise<void>;
}

/** A publisher on the stage's bus; the client is made once per process. */
export function eventPublisher(): EventPublisher {
  const client = new EventBridgeClient({});
  const busName = requireEnv(envNames.eventBus);
  const send = async (detail: EventDetail<unknown>) => {
    const result = await client.send(
      new PutEventsCommand({
        Entries: [
          {
            EventBusName: busName,
            Source: eventSource,
            DetailType: detail.type,
            Detail: JSON.stringify(detail),
            Time: new Date(detail.created_at),
          },
        ],
      }),
    );
    if (result.FailedEntryCount) {
      throw new Error(
        `event ${detail.type} was not accepted: ${result.Entries?.[0]?.ErrorCode ?? 'unknown'}`,
      );
    }
  };
  return { send };
}

/**
 * Sends an event whose change has already committed. The caller's answer must not fail on it: a
 * lost send is logged with the event's id (its stored record is what a resend reads).
 */
export async function sendCommitted(publisher: EventPublisher, detail: EventDetail<unknown>): Promise<void> {
  try {
    await publisher.send(detail);
  } catch (error) {
    logger.error('event was stored but not sent', {
      eventId: detail.id,
      type: detail.type,
      error: error as Error,
    });
  }
}
