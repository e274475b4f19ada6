/**
 * Domain events onto the EventBridge bus. Every event's detail has one shape, so rule targets
 * (webhooks, e-mail) read the same fields whatever the type.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { envNames, requireEnv } from '../config.ts';
import { prefixedId } from '../ids.ts';
import { eventSource } from './rules.ts';

export interface DomainEvent<T = Record<string, unknown>> {
  /** Event type, e.g. `api_key.rotated`; it is the EventBridge detail-type. */
  type: string;
  developerId: number;
  test: boolean;
  data: T;
}

/** The detail of every cobro event on the bus. */
export interface EventDetail<T = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  developer_id: number;
  test: boolean;
  data: T;
}

export interface EventPublisher {
  publish(event: DomainEvent, now: Date): Promise<EventDetail>;
}

/** A publisher on the stage's bus; the client is made once per process. */
export function eventPublisher(): EventPublisher {
  const client = new EventBridgeClient({});
  const busName = requireEnv(envNames.eventBus);
  return {
    async publish(event, now) {
      const detail: EventDetail = {
        id: prefixedId('evt'),
        type: event.type,
        created_at: now.toISOString(),
        developer_id: event.developerId,
        test: event.test,
        data: event.data,
      };
      const result = await client.send(
        new PutEventsCommand({
          Entries: [
            {
              EventBusName: busName,
              Source: eventSource,
              DetailType: event.type,
              Detail: JSON.stringify(detail),
              Time: now,
            },
          ],
        }),
      );
      if (result.FailedEntryCount) {
        throw new Error(
          `event ${event.type} was not accepted: ${result.Entries?.[0]?.ErrorCode ?? 'unknown'}`,
        );
      }
      return detail;
    },
  };
}
