/**
 * Domain events as data: the catalogue's event types (defineEvent), a new event's detail, and the
 * table item that stores it in the transaction of the change it reports. No AWS client: functions
 * that only store events do not load EventBridge.
 */
import * as v from 'valibot';
import { modeOf, type Scope } from '../core/account.ts';
import { prefixedId } from '../core/ids.ts';
import { eventKeys } from './keys.ts';

/** The `source` of every event cobro publishes. */
export const eventSource = 'cobro';
/** The `source` of internal events (internalEventWrite): only cobro's own rules match it. */
export const internalEventSource = 'cobro.internal';
/**
 * The `source` of test events an operator sends on purpose (triggeredEventWrite, `cobro trigger`):
 * only the webhook fan-out matches it, so such an event reaches the account's endpoints like any
 * other and no other consumer acts on its made-up data (no e-mail, no cancellation).
 */
export const triggeredEventSource = 'cobro.trigger';

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

/** Whose records an event reports, in which mode: the scope its consumers act in. */
export const scopeOfEvent = (detail: { developer_id: number; test: boolean }): Scope => ({
  developerId: detail.developer_id,
  mode: modeOf(detail.test),
});

/**
 * One event type of the catalogue: its name (the EventBridge detail-type) and the schema of its
 * `data`. Areas declare their own in their events.ts; shared/api/events.ts lists them all.
 */
export interface EventType<T> {
  type: string;
  data: v.GenericSchema<unknown, T>;
  /** A new event of this type about an account's records, in a mode. */
  of(owner: Scope, data: T, now: Date): EventDetail<T>;
  /** A received event's detail, its data checked against the schema (a consumer's first step). */
  read(detail: unknown): EventDetail<T>;
}

export function defineEvent<T>(type: string, data: v.GenericSchema<unknown, T>): EventType<T> {
  const detailSchema = v.looseObject({
    id: v.string(),
    type: v.literal(type),
    created_at: v.string(),
    developer_id: v.number(),
    test: v.boolean(),
    data,
  });
  return {
    type,
    data,
    of: (owner, payload, now) =>
      newEvent({ type, developerId: owner.developerId, test: owner.mode === 'test', data: payload }, now),
    read: (detail) => v.parse(detailSchema, detail) as EventDetail<T>,
  };
}

/**
 * An internal event type: one cobro's own functions act on (stored with internalEventWrite, on the
 * bus under internalEventSource), never in the catalogue, the events API or a webhook.
 */
export const defineInternalEvent = <T>(type: string, data: v.GenericSchema<unknown, T>): EventType<T> =>
  defineEvent(type, data);

/** The entity tag of stored events: the outbox relay picks these items out of the table's stream. */
export const eventEntity = 'event';

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
  const mode = modeOf(detail.test);
  const created = new Date(detail.created_at);
  return {
    ...eventKeys.event(detail.id),
    ...eventKeys.inList(detail.developer_id, mode, detail.created_at, detail.id),
    ...eventKeys.ofType(detail.developer_id, mode, detail.type, detail.created_at, detail.id),
    entity: eventEntity,
    developer_id: detail.developer_id,
    mode,
    detail,
    created_at: detail.created_at,
    updated_at: detail.created_at,
    expires_at: Math.floor(created.getTime() / 1000) + eventRetentionDays * 86_400,
  };
}

/**
 * The transaction item of an internal event: one cobro's own functions act on (through the
 * outbox and the bus, like every event), never listed by the events API nor sent to webhooks. It
 * keeps a place in an internal list of its type instead (eventKeys.internalOfType), for operator work.
 */
export function internalEventWrite(table: string, detail: EventDetail<unknown>) {
  const { gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, ...item } = eventItem(detail);
  const mode = modeOf(detail.test);
  return {
    Put: {
      TableName: table,
      Item: {
        ...item,
        ...eventKeys.internalOfType(detail.developer_id, mode, detail.type, detail.created_at, detail.id),
        internal: true,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** The transaction item that stores an event beside the change it reports. */
export function eventWrite(table: string, detail: EventDetail<unknown>) {
  return {
    Put: { TableName: table, Item: eventItem(detail), ConditionExpression: 'attribute_not_exists(pk)' },
  };
}

/**
 * The item of a test event sent on purpose: stored, listed and redelivered as any event, but put on
 * the bus under triggeredEventSource, so only webhooks receive it.
 */
export function triggeredEventWrite(table: string, detail: EventDetail<unknown>) {
  return {
    Put: {
      TableName: table,
      Item: { ...eventItem(detail), triggered: true },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}
