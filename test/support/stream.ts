/**
 * DynamoDB stream records as Lambda hands them to the outbox relay, built from the items the
 * table stores, each with a sequence number of its own (increasing).
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { eventItem, newEvent } from '../../shared/events/event.ts';

let sequence = 100;

/** The stream record of `item` written anew (or as `eventName` says), with the next sequence number. */
export function streamRecord(item: Record<string, unknown>, eventName = 'INSERT'): DynamoDBRecord {
  sequence += 1;
  return {
    eventName,
    dynamodb: {
      SequenceNumber: String(sequence).padStart(21, '0'),
      NewImage: marshall(item, { removeUndefinedValues: true }) as never,
    },
  } as DynamoDBRecord;
}

/** The stream record of a stored event whose detail's id is `id`. */
export function eventRecord(
  id: string,
  options: { type?: string; developerId?: number; at?: Date } = {},
): DynamoDBRecord {
  const event = newEvent(
    { type: options.type ?? 'charge.succeeded', developerId: options.developerId ?? 7, test: true, data: {} },
    options.at ?? new Date(),
  );
  return streamRecord(eventItem({ ...event, id }));
}

/** The sequence number the relay reports a record by. */
export const sequenceOf = (record: DynamoDBRecord | undefined) => String(record?.dynamodb?.SequenceNumber);

export const streamEvent = (records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });
