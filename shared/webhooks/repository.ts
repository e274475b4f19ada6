/**
 * Webhook endpoints, their delivery tasks and attempts in the single table. An endpoint's partition
 * holds its tasks (one per event and round of sending) and attempts; tasks waiting for a retry sit
 * in the due index (gsi2, by due time); attempts are listed newest first in gsi1 with a count item.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Scope, scopeOf } from '../core/account.ts';
import { Invalid, NotFound } from '../core/errors.ts';
import type { PageRequest } from '../core/pagination.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { dueEntries } from '../db/due.ts';
import { defineEntity } from '../db/entity.ts';
import { queryEach, recordOf } from '../db/items.ts';
import { countedList, countedPage, countUpdate } from '../db/lists.ts';
import { retryOptimistic } from '../db/optimistic.ts';
import { failedConditions, named, transactNamed, transactWrite } from '../db/transact.ts';
import { maxEndpoints, type WebhookEndpoint } from './endpoint.ts';
import { webhookKeys } from './keys.ts';
import { webhookMessages } from './messages.ts';

/** How long tasks, attempts and dead letters are kept (DynamoDB TTL): as long as events. */
const keptSeconds = 30 * 86_400;
const expiresAt = (now: Date) => Math.floor(now.getTime() / 1000) + keptSeconds;

export const endpointEntity = defineEntity<WebhookEndpoint>('webhook_endpoint', (endpoint) => ({
  ...webhookKeys.endpoint(endpoint.developer_id, endpoint.mode, endpoint.id),
  ...webhookKeys.endpointInList(endpoint.developer_id, endpoint.mode, endpoint.created_at, endpoint.id),
}));

const endpointList = (scope: Scope) =>
  countedList(
    webhookKeys.endpointCount(scope.developerId, scope.mode),
    'webhook_endpoint',
    webhookKeys.endpointListTag,
  );

/** Stores a new endpoint; the account's `maxEndpoints`-th is the last (400 after). */
export async function createEndpoint(deps: Deps, endpoint: WebhookEndpoint): Promise<void> {
  const scope = scopeOf(endpoint);
  const { Update: update } = countUpdate(deps, endpointList(scope), scope, 1, endpoint.created_at);
  const count = {
    Update: {
      ...(update as NonNullable<typeof update>),
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
      ExpressionAttributeValues: { ...update?.ExpressionAttributeValues, ':max': maxEndpoints },
    },
  };
  const items = [...named('endpoint', endpointEntity.create(deps.table, endpoint)), ...named('count', count)];
  try {
    await transactNamed(deps, items);
  } catch (error) {
    if (failedConditions(error, items).has('count')) {
      throw new Invalid(webhookMessages.webhook_endpoint_limit, { params: { max: String(maxEndpoints) } });
    }
    throw error;
  }
}

/** Envelope B's page of endpoints, newest first. */
export async function listEndpoints(deps: Deps, scope: Scope, page: PageRequest) {
  const { count, records } = await countedPage<WebhookEndpoint>(deps, endpointList(scope), page);
  return { count, endpoints: records };
}

/** Every endpoint of the account and mode (at most `maxEndpoints`): one Query. */
export async function endpointsOf(deps: Deps, scope: Scope): Promise<WebhookEndpoint[]> {
  const found: WebhookEndpoint[] = [];
  const list = endpointList(scope);
  await queryEach(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': list.count.gsi1pk, ':prefix': list.prefix.recordsOnly },
    },
    (item) => {
      found.push(recordOf<WebhookEndpoint>(item));
      return true;
    },
  );
  return found;
}

/** One endpoint of the account and mode, or 404. */
export async function getEndpoint(deps: Deps, scope: Scope, id: string): Promise<WebhookEndpoint> {
  const endpoint = await endpointEntity.get(deps, webhookKeys.endpoint(scope.developerId, scope.mode, id));
  if (!endpoint) throw new NotFound(webhookMessages.webhook_endpoint_not_found);
  return endpoint;
}

/**
 * Applies `change` to the endpoint as stored, conditioned on the version read: a concurrent
 * change makes it read again and re-apply (db/optimistic.ts), so no update is lost; 409 when
 * others keep winning.
 */
export function changeEndpoint(
  deps: Deps,
  scope: Scope,
  id: string,
  change: (endpoint: WebhookEndpoint) => Partial<WebhookEndpoint>,
): Promise<WebhookEndpoint> {
  return retryOptimistic(async () => {
    const current = await getEndpoint(deps, scope, id);
    const next: WebhookEndpoint = {
      ...current,
      ...change(current),
      version: current.version + 1,
      updated_at: deps.clock().toISOString(),
    };
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: endpointEntity.item(next),
        ConditionExpression: 'version = :read',
        ExpressionAttributeValues: { ':read': current.version },
      }),
    );
    return next;
  });
}

/** Removes an endpoint (its tasks and attempts expire with the TTL); 404 if it is not there. */
export async function deleteEndpoint(deps: Deps, scope: Scope, id: string): Promise<void> {
  const now = deps.clock().toISOString();
  try {
    await transactWrite(deps, [
      {
        Delete: {
          TableName: deps.table,
          Key: webhookKeys.endpoint(scope.developerId, scope.mode, id),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      countUpdate(deps, endpointList(scope), scope, -1, now),
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) throw new NotFound(webhookMessages.webhook_endpoint_not_found);
    throw error;
  }
}

/** What tasks and attempts both name: whose, which endpoint, which event. */
interface DeliveryOf {
  id: string;
  developer_id: number;
  mode: Scope['mode'];
  endpoint_id: string;
  event_id: string;
  event_type: string;
}

/** Sending one event to one endpoint; `attempts` made so far. */
export interface WebhookTask extends DeliveryOf {
  round: string;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled';
  attempts: number;
  next_retry_at: string | null;
  /** While an attempt runs: until when it is its runner's (a crashed runner's task is due again then). */
  lease_until?: string;
  created_at: string;
  updated_at: string;
  expires_at: number;
}

/** The entity tag of tasks: the outbox relay hands new ones to the delivery function. */
export const taskEntityTag = 'webhook_task';

export const taskKey = (
  task: Pick<WebhookTask, 'developer_id' | 'mode' | 'endpoint_id' | 'event_id' | 'round'>,
) => webhookKeys.task(task.developer_id, task.mode, task.endpoint_id, task.event_id, task.round);

const taskEntity = defineEntity<WebhookTask>(taskEntityTag, (task) => ({
  ...taskKey(task),
  ...(task.status === 'pending' && task.next_retry_at
    ? webhookKeys.taskDue(task.id, task.next_retry_at)
    : {}),
}));

/**
 * A new task, unless this event's round for the endpoint exists already: an event handed twice
 * (the bus is at-least-once) makes one task, so one delivery. Answers whether it was created.
 */
export async function createTask(deps: Deps, task: WebhookTask): Promise<boolean> {
  try {
    await deps.db.send(new PutCommand(taskEntity.create(deps.table, task).Put));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The fields every task starts with. */
export function newTask(
  endpoint: Pick<WebhookEndpoint, 'developer_id' | 'mode' | 'id'>,
  event: { id: string; type: string },
  round: string,
  now: Date,
  /** When the retry sweep should pick it up if the immediate hand-over is lost. */
  safetyNet: Date,
): WebhookTask {
  return {
    id: `${endpoint.id}.${event.id}.${round}`,
    developer_id: endpoint.developer_id,
    mode: endpoint.mode,
    endpoint_id: endpoint.id,
    event_id: event.id,
    event_type: event.type,
    round,
    status: 'pending',
    attempts: 0,
    next_retry_at: safetyNet.toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    expires_at: expiresAt(now),
  };
}

/**
 * Takes a pending task for one attempt until `leaseUntil`, moving its due time there (so a runner
 * that dies leaves it due again). Answers the task, or undefined when it is done or another runner
 * holds it.
 */
export async function claimTask(
  deps: Deps,
  key: { pk: string; sk: string },
  now: Date,
  leaseUntil: Date,
): Promise<WebhookTask | undefined> {
  try {
    const result = await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: key,
        UpdateExpression: 'SET lease_until = :lease, gsi2sk = :due',
        ConditionExpression:
          'entity = :tag AND #status = :pending AND (attribute_not_exists(lease_until) OR lease_until <= :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':lease': leaseUntil.toISOString(),
          // Index keys need not be unique: the shard (gsi2pk) stays, the due time moves.
          ':due': webhookKeys.leasedDue(leaseUntil.toISOString(), key.sk),
          ':tag': taskEntityTag,
          ':pending': 'pending',
          ':now': now.toISOString(),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return recordOf<WebhookTask>(result.Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** One attempt as the deliveries list shows it. */
export interface WebhookAttempt extends DeliveryOf {
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  created_at: string;
  next_retry_at: string | null;
  expires_at: number;
}

const deliveryList = (scope: Scope, endpointId: string) =>
  countedList(
    webhookKeys.deliveryCount(scope.developerId, scope.mode, endpointId),
    'webhook_delivery',
    webhookKeys.deliveryListTag,
  );

/**
 * Records an attempt and where the task goes next, in one transaction conditioned on the claim
 * this runner holds: the attempt, the deliveries count, the task (pending with its next due time,
 * or finished), the endpoint disabled on a 410, and a dead letter when retries ran out.
 */
export async function recordAttempt(
  deps: Deps,
  task: WebhookTask,
  attempt: WebhookAttempt,
  outcome: { status: WebhookTask['status']; disableEndpoint: boolean; deadLetter: boolean },
): Promise<boolean> {
  const scope = scopeOf(task);
  const now = attempt.created_at;
  const pending = outcome.status === 'pending' && attempt.next_retry_at !== null;
  const due = pending ? webhookKeys.taskDue(task.id, attempt.next_retry_at as string) : undefined;
  const items: Parameters<typeof transactWrite>[1] = [
    {
      Put: {
        TableName: deps.table,
        Item: {
          ...webhookKeys.deliveryInList(scope.developerId, scope.mode, task.endpoint_id, now, attempt.id),
          entity: 'webhook_delivery',
          ...attempt,
          updated_at: now,
        },
      },
    },
    countUpdate(deps, deliveryList(scope, task.endpoint_id), scope, 1, now),
    {
      Update: {
        TableName: deps.table,
        Key: taskKey(task),
        UpdateExpression: due
          ? 'SET attempts = :next, #status = :status, next_retry_at = :retry, updated_at = :now, gsi2pk = :dpk, gsi2sk = :dsk REMOVE lease_until'
          : 'SET attempts = :next, #status = :status, next_retry_at = :retry, updated_at = :now REMOVE lease_until, gsi2pk, gsi2sk',
        ConditionExpression: 'attempts = :made AND lease_until = :lease',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':next': task.attempts + 1,
          ':made': task.attempts,
          ':lease': task.lease_until,
          ':status': outcome.status,
          ':retry': attempt.next_retry_at,
          ':now': now,
          ...(due ? { ':dpk': due.gsi2pk, ':dsk': due.gsi2sk } : {}),
        },
      },
    },
  ];
  if (outcome.disableEndpoint) {
    items.push({
      Update: {
        TableName: deps.table,
        Key: webhookKeys.endpoint(scope.developerId, scope.mode, task.endpoint_id),
        UpdateExpression: 'SET enabled = :off, updated_at = :now ADD version :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':off': false, ':now': now, ':one': 1 },
      },
    });
  }
  if (outcome.deadLetter) {
    items.push({
      Put: {
        TableName: deps.table,
        Item: {
          ...webhookKeys.deadLetter(now, task.id),
          entity: 'webhook_dead_letter',
          task_id: task.id,
          developer_id: task.developer_id,
          mode: task.mode,
          endpoint_id: task.endpoint_id,
          event_id: task.event_id,
          event_type: task.event_type,
          attempts: task.attempts + 1,
          last_status_code: attempt.status_code,
          last_error: attempt.error,
          created_at: now,
          updated_at: now,
          expires_at: attempt.expires_at,
        },
      },
    });
  }
  try {
    await transactWrite(deps, items);
    return true;
  } catch (error) {
    // The claim was lost (it expired and another runner took the task): that runner records.
    if (conditionFailedAt(error).length > 0) return false;
    throw error;
  }
}

/** Ends a task without an attempt (its endpoint was removed or disabled, its event expired). */
export async function cancelTask(deps: Deps, task: WebhookTask, now: Date): Promise<void> {
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: taskKey(task),
        UpdateExpression:
          'SET #status = :canceled, next_retry_at = :none, updated_at = :now REMOVE lease_until, gsi2pk, gsi2sk',
        ConditionExpression: 'lease_until = :lease',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':canceled': 'canceled',
          ':none': null,
          ':now': now.toISOString(),
          ':lease': task.lease_until,
        },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** Envelope B's page of an endpoint's attempts, newest first. */
export async function listAttempts(deps: Deps, scope: Scope, endpointId: string, page: PageRequest) {
  const { count, records } = await countedPage<WebhookAttempt>(deps, deliveryList(scope, endpointId), page);
  return { count, attempts: records };
}

/** Keys of tasks due at `now` (at most `limit` per shard of the due index). */
export async function dueTasks(deps: Deps, now: Date, limit: number): Promise<{ pk: string; sk: string }[]> {
  const due = await dueEntries<Record<string, unknown>>(
    deps,
    webhookKeys.taskDuePartition,
    now,
    limit,
    'gsi2',
  );
  return due.map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
}

/** Tasks that ran out of retries, newest first, over the last `days` days (operator CLI). */
export async function deadLetters(deps: Deps, now: Date, days: number): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for (let day = 0; day < days; day++) {
    const date = new Date(now.getTime() - day * 86_400_000).toISOString();
    await queryEach(
      deps,
      {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': webhookKeys.deadLetter(date, '').pk },
        ScanIndexForward: false,
      },
      (item) => {
        found.push(recordOf(item));
        return true;
      },
    );
  }
  return found;
}
