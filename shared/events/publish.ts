/**
 * Domain events onto the EventBridge bus. Every event's detail has one shape, so rule targets
 * (webhooks, e-mail) read the same fields whatever the type. An event that money or customers
 * depend on is first written as an item in the same transaction as the change it reports
 * (`eventItem`), then sent: the record survives a bus that is briefly unreachable.
 */
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { Mode } from '../auth/account-context.ts';
import { envNames, requireEnv } from '../config.ts';
import { keys } from '../db/keys.ts';
import { prefixedId } from '../ids.ts';
import { logger } from '../log.ts';
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

/** How long stored events are kept (DynamoDB TTL). */
export const eventRetentionDays = 30;

/** The detail of a new event, with its id and time. */
export function newEvent<T>(event: DomainEvent<T>, now: Date): EventDetail<T> {
  return {
    id: prefixedId('evt'),
    type: event.type,
    created_at: now.toISOString(),
    developer_id: event.developerId,
    test: event.test,
    data: event.data,
  };
}

/** The table item recording an event, for the transaction that makes the change it reports. */
export function eventItem(detail: EventDetail<unknown>): Record<string, unknown> {
  const mode: Mode = detail.test ? 'test' : 'live';
  const created = new Date(detail.created_at);
  return {
    ...keys.event(detail.id),
    ...keys.eventInList(detail.developer_id, mode, detail.created_at, detail.id),
    entity: 'event',
    developer_id: detail.developer_id,
    mode,
    detail,
    created_at: detail.created_at,
    updated_at: detail.created_at,
    expires_at: Math.floor(created.getTime() / 1000) + eventRetentionDays * 86_400,
  };
}

/** The transaction item that stores an event beside the change it reports. */
export function eventWrite(table: string, detail: EventDetail<unknown>) {
  return {
    Put: { TableName: table, Item: eventItem(detail), ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

export interface EventPublisher {
  /** Builds and sends a new event. */
  publish(event: DomainEvent, now: Date): Promise<EventDetail>;
  /** Sends an event already built (and usually already stored). */
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
  return {
    send,
    async publish(event, now) {
      const detail = newEvent(event, now);
      await send(detail);
      return detail;
    },
  };
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
