/**
 * The table is the outbox: every event is an item written in the transaction of the change it
 * reports, and the table's stream carries it to the bus (functions/events/relay-events.ts). Nothing
 * else publishes cobro events, so an event is sent only once its change is stored, and a crash or an
 * unreachable bus delays it (the stream keeps the record until the relay succeeds) without losing it.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/** The part of a DynamoDB stream record the relay reads (Lambda's and the local reader's shape). */
export interface OutboxRecord {
  eventName?: string;
  dynamodb?: {
    SequenceNumber?: string;
    NewImage?: Record<string, unknown>;
  };
}

/**
 * The event source mapping's filter: new items with one of these entity tags. The CDK app passes it
 * to Lambda; the local stack's stream reader applies the same pattern (isOutboxRecord).
 */
export const outboxFilterPattern = (entities: readonly string[]) => ({
  eventName: ['INSERT'],
  dynamodb: { NewImage: { entity: { S: [...entities] } } },
});

/** Whether a stream record passes outboxFilterPattern(entities). */
export function isOutboxRecord(record: OutboxRecord, entities: readonly string[]): boolean {
  const entity = record.dynamodb?.NewImage?.entity as { S?: string } | undefined;
  return record.eventName === 'INSERT' && entities.includes(entity?.S ?? '');
}

/** The item a stream record stores, as plain values. */
export function itemOfRecord(record: OutboxRecord): Record<string, unknown> {
  return unmarshall((record.dynamodb?.NewImage ?? {}) as Record<string, AttributeValue>);
}
