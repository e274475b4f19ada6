/**
 * The events API (docs/design.md#events, #redelivery): stored events of an account and mode, newest
 * first, by type, kept 30 days; and redelivery, which makes a new round of tasks for the event.
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { Scope } from '../core/account.ts';
import { Conflict, Invalid, NotFound, TooOften } from '../core/errors.ts';
import { randomToken } from '../core/ids.ts';
import type { Message } from '../core/messages.ts';
import {
  assertPageExists,
  linkedPage,
  type PageRequest,
  pageParameters,
  pageRequestOf,
} from '../core/pagination.ts';
import { queryParameter } from '../core/query.ts';
import type { Deps } from '../db/deps.ts';
import { queryEach } from '../db/items.ts';
import { giveBackToWindow, takeFromWindow } from '../db/window.ts';
import { type EventDetail, eventRetentionDays } from '../events/event.ts';
import { eventKeys } from '../events/keys.ts';
import { type WebhookBody, webhookBody } from '../events/webhook-body.ts';
import { subscribes, type WebhookEndpoint } from './endpoint.ts';
import { webhookKeys } from './keys.ts';
import { webhookMessages } from './messages.ts';
import { createTask, endpointsOf, getEndpoint, newTask } from './repository.ts';

export const EventListQuerySchema = v.pipe(
  v.object({
    ...pageParameters(),
    type: queryParameter(
      'string',
      'Only events of this type (payment.succeeded, say).',
      v.pipe(v.string(), v.maxLength(100)),
    ),
  }),
  v.transform(({ page, page_size, type }) => ({ page: pageRequestOf({ page, page_size }), type })),
);

/** The event as the API and webhooks show it (the Standard Webhooks body). */
export const EventViewSchema = v.object({
  id: v.string(),
  type: v.string(),
  created_at: v.string(),
  test: v.boolean(),
  data: v.object({ object: v.unknown() }),
});

const retentionMs = eventRetentionDays * 86_400_000;
/** Whether an event is still kept at `now` (DynamoDB's TTL deletes later than the time it names). */
const kept = (detail: EventDetail<unknown>, now: Date) =>
  now.getTime() - Date.parse(detail.created_at) < retentionMs;

/** A stored event by id, whatever its account (the delivery function's read), or undefined. */
export async function storedEvent(deps: Deps, id: string): Promise<EventDetail<unknown> | undefined> {
  if (!/^evt_[A-Za-z0-9]{24}$/.test(id)) return undefined;
  const result = await deps.db.send(new GetCommand({ TableName: deps.table, Key: eventKeys.event(id) }));
  // An internal event is cobro's own: never shown by the events API nor sent to a webhook.
  if (result.Item?.internal === true) return undefined;
  return result.Item?.detail as EventDetail<unknown> | undefined;
}

/** One event of the account and mode from the last 30 days, or 404. */
export async function getEvent(deps: Deps, scope: Scope, id: string): Promise<EventDetail<unknown>> {
  const detail = await storedEvent(deps, id);
  const mine = detail && detail.developer_id === scope.developerId && detail.test === (scope.mode === 'test');
  if (!detail || !mine || !kept(detail, deps.clock())) throw new NotFound(webhookMessages.event_not_found);
  return detail;
}

/** Envelope B of the account's events in a mode, newest first, optionally of one type. */
export async function listEvents(
  deps: Deps & { baseUrl: string },
  scope: Scope,
  query: { page: PageRequest; type?: string | undefined },
) {
  const now = deps.clock();
  const oldest = new Date(now.getTime() - retentionMs).toISOString();
  const partition = query.type
    ? {
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk > :from',
        ExpressionAttributeValues: {
          ':pk': eventKeys.ofType(scope.developerId, scope.mode, query.type, '', '').gsi2pk,
          ':from': `${eventKeys.listPrefix}${oldest}`,
        },
      }
    : {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk > :from',
        ExpressionAttributeValues: {
          ':pk': eventKeys.inList(scope.developerId, scope.mode, '', '').gsi1pk,
          ':from': `${eventKeys.listPrefix}${oldest}`,
        },
      };
  // The count: a COUNT query over the last 30 days (events have no counter item: TTL removes them).
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const result = await deps.db.send(
      new QueryCommand({ TableName: deps.table, ...partition, Select: 'COUNT', ExclusiveStartKey: start }),
    );
    count += result.Count ?? 0;
    start = result.LastEvaluatedKey;
  } while (start);
  assertPageExists(count, query.page);
  const offset = (query.page.page - 1) * query.page.pageSize;
  const results: WebhookBody[] = [];
  let seen = 0;
  await queryEach(
    deps,
    { ...partition, ScanIndexForward: false, ProjectionExpression: 'detail' },
    (item) => {
      if (seen >= offset) results.push(webhookBody(item.detail as EventDetail<unknown>));
      seen += 1;
      return results.length < query.page.pageSize;
    },
    () => offset + query.page.pageSize - seen,
  );
  const link = (page: number) => {
    const params = new URLSearchParams({ page: String(page), page_size: String(query.page.pageSize) });
    if (query.type !== undefined) params.set('type', query.type);
    return `${deps.baseUrl}/v1/events/?${params}`;
  };
  return linkedPage(count, query.page, results, link);
}

/** How long after a task is made the retry sweep takes it, should its immediate hand-over be lost. */
export const handOverGraceMs = 60_000;

/**
 * How often events may be sent again: each redelivery fans out to up to 16 endpoints, so an
 * unbounded loop of them would flood every receiver. An hour's window starts at the first
 * redelivery it counts. Failed deliveries need none of this: they are retried on their own.
 */
export const redeliveryLimits = {
  /** Redeliveries of one event in a window. */
  perEvent: 5,
  /** Redeliveries of an account's events in one mode in a window. */
  perAccount: 100,
  windowMs: 3_600_000,
} as const;

/**
 * Counts a redelivery against its event's limit, then its account's (in the table: every Lambda
 * counts on the same items); a 429 with Retry-After past either. An event refused leaves the
 * account's count alone, and an account refused gives the event its use back.
 */
async function countRedelivery(deps: Deps, scope: Scope, eventId: string, now: Date): Promise<void> {
  const counter = (counted: string | undefined, limit: number) => ({
    key: webhookKeys.redeliveryCounter(scope.developerId, scope.mode, counted),
    entity: 'redelivery_counter',
    owner: { developer_id: scope.developerId, mode: scope.mode },
    limit,
    windowMs: redeliveryLimits.windowMs,
  });
  const refused = (message: Message, limit: number, retryAfterSeconds: number) =>
    new TooOften(message, retryAfterSeconds, {
      params: { limit: String(limit), seconds: String(retryAfterSeconds) },
    });
  const ofEvent = counter(eventId, redeliveryLimits.perEvent);
  const event = await takeFromWindow(deps, ofEvent, now);
  if (!event.taken)
    throw refused(webhookMessages.redelivery_limit_event, ofEvent.limit, event.retryAfterSeconds);
  const ofAccount = counter(undefined, redeliveryLimits.perAccount);
  const account = await takeFromWindow(deps, ofAccount, now);
  if (!account.taken) {
    await giveBackToWindow(deps, ofEvent.key, event.windowEndMs);
    throw refused(webhookMessages.redelivery_limit_account, ofAccount.limit, account.retryAfterSeconds);
  }
}

/**
 * POST /v1/events/{id}/redeliver/: a new round of tasks for the event, to the endpoint named or to
 * every enabled endpoint of the account and mode that takes its type, within `redeliveryLimits`
 * (429 past them). Answers how many.
 */
export async function redeliverEvent(
  deps: Deps,
  scope: Scope,
  eventId: string,
  input: { endpoint_id?: string | undefined },
): Promise<number> {
  const event = await getEvent(deps, scope, eventId);
  let targets: WebhookEndpoint[];
  if (input.endpoint_id !== undefined) {
    const named = await getEndpoint(deps, scope, input.endpoint_id).catch((error: unknown) => {
      if (error instanceof NotFound) throw new Invalid(webhookMessages.redeliver_endpoint_absent);
      throw error;
    });
    if (!named.enabled) throw new Conflict(webhookMessages.redeliver_endpoint_disabled);
    targets = [named];
  } else {
    targets = (await endpointsOf(deps, scope)).filter(
      (endpoint) => endpoint.enabled && subscribes(endpoint, event.type),
    );
  }
  const now = deps.clock();
  // Counted once the request is known good (the event and the endpoint named exist), before any
  // task is made: a refused redelivery sends nothing.
  await countRedelivery(deps, scope, event.id, now);
  const round = `r${now.getTime().toString(36)}${randomToken(6)}`;
  await Promise.all(
    targets.map((endpoint) =>
      createTask(deps, newTask(endpoint, event, round, now, new Date(now.getTime() + handOverGraceMs))),
    ),
  );
  return targets.length;
}
