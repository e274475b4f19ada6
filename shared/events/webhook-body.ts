/**
 * The body of a webhook delivery (Standard Webhooks, docs/design.md#signing):
 * `{id, type, created_at, test, data}`, where `data` always has the record as `object`. One rule
 * turns an event's stored `data` into that `data`, for values (the sender) and for schemas (the
 * OpenAPI document): data that already carries an `object` is sent as stored, any other is wrapped
 * as `{object: data}`.
 */
import * as v from 'valibot';
import type { EventDetail, EventType } from './event.ts';

const isObjectCarrier = (data: unknown): data is { object: unknown } =>
  typeof data === 'object' && data !== null && !Array.isArray(data) && Object.hasOwn(data, 'object');

/**
 * The webhook `data` of an event of `type` whose stored data is `data`: `data` itself when it is an
 * object with an `object` key, else `{object: data}`. The type is taken so that a per-type rule,
 * should one be needed, lands here and not in the sender.
 */
export function webhookData(_type: EventType<unknown>['type'], data: unknown): { object: unknown } {
  return isObjectCarrier(data) ? data : { object: data };
}

/** The body a webhook delivers for an event: its detail without the account, `data` as webhookData makes it. */
export function webhookBody(detail: EventDetail<unknown>): WebhookBody {
  return {
    id: detail.id,
    type: detail.type,
    created_at: detail.created_at,
    test: detail.test,
    data: webhookData(detail.type, detail.data),
  };
}

export interface WebhookBody {
  id: string;
  type: string;
  created_at: string;
  test: boolean;
  data: { object: unknown };
}

const objectSchemaTypes = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);

/**
 * Whether values of a data schema carry an `object` (the schema side of webhookData): an object
 * schema with an `object` entry.
 */
export function carriesObject(schema: v.GenericSchema): boolean {
  return (
    objectSchemaTypes.has(schema.type) &&
    'entries' in schema &&
    typeof schema.entries === 'object' &&
    schema.entries !== null &&
    Object.hasOwn(schema.entries, 'object')
  );
}

/** The schema of the webhook `data` of an event type: its data schema, wrapped unless it carries an `object`. */
export function webhookDataSchema(schema: v.GenericSchema): v.GenericSchema {
  return carriesObject(schema) ? schema : v.object({ object: schema });
}

/** The schema of the body a webhook delivers for events of `eventType`. */
export function webhookBodySchema(eventType: EventType<unknown>): v.GenericSchema {
  return v.object({
    id: v.pipe(v.string(), v.regex(/^evt_[A-Za-z0-9]{24}$/), v.description('The event id.')),
    type: v.pipe(v.literal(eventType.type), v.description('The event type.')),
    created_at: v.pipe(
      v.string(),
      v.isoTimestamp(),
      v.description('When the event occurred (ISO 8601, UTC).'),
    ),
    test: v.pipe(v.boolean(), v.description('Whether the event happened in test mode.')),
    data: v.pipe(
      webhookDataSchema(eventType.data),
      v.description('`object` is the record the event is about.'),
    ),
  });
}
