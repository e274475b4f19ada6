/**
 * Sending events to endpoints (docs/design.md#webhooks). A bus rule hands every cobro event to
 * `fanOut`, which makes one task per endpoint that takes it (a conditional write: an event handed
 * twice makes one task). Each new task reaches `runTask` on its own (the table's stream, then the
 * bus), so a slow or failing receiver holds up nothing but its own task. A failed attempt leaves the
 * task in the due index at its next retry time; the retry sweep (sweep.ts, every minute) hands due
 * tasks over again.
 */

import { prefixedId } from '../core/ids.ts';
import { countFact, metricNames } from '../core/metrics.ts';
import type { Deps } from '../db/deps.ts';
import { type EventDetail, scopeOfEvent } from '../events/event.ts';
import { webhookBody } from '../events/webhook-body.ts';
import { subscribes } from './endpoint.ts';
import { handOverGraceMs, storedEvent } from './events.ts';
import { webhookKeys } from './keys.ts';
import {
  cancelTask,
  claimTask,
  createTask,
  endpointEntity,
  endpointsOf,
  newTask,
  recordAttempt,
  type WebhookTask,
} from './repository.ts';
import { type SecretBox, signedHeaders } from './secrets.ts';
import { deliver } from './send.ts';

/** Standard Webhooks' retry schedule: the waits after attempts 1 to 9; about 3 days in all. */
export const retryScheduleMs = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const;
export const maxAttempts = retryScheduleMs.length + 1;
/** A receiver has this long to answer; no answer counts as a failure. */
export const attemptTimeoutMs = 10_000;
/** A runner holds a task this long; one that dies leaves it due again after it. */
const leaseMs = 60_000;

/** The round of an event's first sending (redeliveries make others). */
export const firstRound = '0';

export interface DeliveryDeps extends Deps {
  secrets: SecretBox;
  /** How an attempt is made: the pinned, SSRF-checked POST (tests may pass another). */
  post?: typeof deliver;
}

/** Makes the tasks of a new event: one per enabled endpoint of its account and mode taking its type. */
export async function fanOut(deps: Deps, event: EventDetail<unknown>): Promise<number> {
  const scope = scopeOfEvent(event);
  const endpoints = (await endpointsOf(deps, scope)).filter(
    (endpoint) => endpoint.enabled && subscribes(endpoint, event.type),
  );
  const now = deps.clock();
  const made = await Promise.all(
    endpoints.map((endpoint) =>
      createTask(deps, newTask(endpoint, event, firstRound, now, new Date(now.getTime() + handOverGraceMs))),
    ),
  );
  return made.filter(Boolean).length;
}

export type TaskOutcome = 'succeeded' | 'retrying' | 'failed' | 'disabled' | 'canceled' | 'busy';

/**
 * One attempt of a task, at `at` (the sweep's time; never before the clock's): claim it, sign the
 * event with the endpoint's secrets, POST it, and record the attempt and what comes next.
 */
export async function runTask(
  deps: DeliveryDeps,
  key: { pk: string; sk: string },
  at: Date,
): Promise<TaskOutcome> {
  const now = new Date(Math.max(deps.clock().getTime(), at.getTime()));
  const task = await claimTask(deps, key, now, new Date(now.getTime() + leaseMs));
  if (!task) return 'busy';
  const [endpoint, event] = await Promise.all([
    endpointEntity.get(deps, webhookKeys.endpoint(task.developer_id, task.mode, task.endpoint_id)),
    storedEvent(deps, task.event_id),
  ]);
  if (!endpoint?.enabled || !event) {
    await cancelTask(deps, task, now);
    return 'canceled';
  }
  const body = JSON.stringify(webhookBody(event));
  const secrets = [await deps.secrets.open(endpoint.secret)];
  if (
    endpoint.previous_secret &&
    endpoint.previous_until &&
    Date.parse(endpoint.previous_until) > now.getTime()
  ) {
    secrets.push(await deps.secrets.open(endpoint.previous_secret));
  }
  const post = deps.post ?? deliver;
  const result = await post({
    url: endpoint.url,
    mode: endpoint.mode,
    headers: signedHeaders(secrets, { id: event.id, body, at: now }),
    body,
    timeoutMs: attemptTimeoutMs,
  });
  return record(deps, task, result, now);
}

async function record(
  deps: Deps,
  task: WebhookTask,
  result: { statusCode: number | null; durationMs: number; error: string | null },
  now: Date,
): Promise<TaskOutcome> {
  const number = task.attempts + 1;
  const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
  const gone = result.statusCode === 410;
  const retry = !ok && !gone && number < maxAttempts;
  const wait = retryScheduleMs[number - 1];
  const nextRetryAt = retry && wait !== undefined ? new Date(now.getTime() + wait).toISOString() : null;
  const status: WebhookTask['status'] = ok ? 'succeeded' : retry ? 'pending' : 'failed';
  await recordAttempt(
    deps,
    task,
    {
      id: prefixedId('del'),
      developer_id: task.developer_id,
      mode: task.mode,
      endpoint_id: task.endpoint_id,
      event_id: task.event_id,
      event_type: task.event_type,
      attempt: number,
      status_code: result.statusCode,
      duration_ms: Math.round(result.durationMs),
      error: ok ? null : (result.error ?? `HTTP ${result.statusCode}`),
      created_at: now.toISOString(),
      next_retry_at: nextRetryAt,
      expires_at: task.expires_at,
    },
    { status, disableEndpoint: gone, deadLetter: status === 'failed' && !gone },
  );
  // Counted once the attempt is recorded: a task is claimed by one runner at a time.
  countFact(ok ? metricNames.webhookDeliveries : metricNames.webhookFailures, task.mode);
  if (status === 'failed' && !gone) countFact(metricNames.webhookDeadLetters, task.mode);
  if (ok) return 'succeeded';
  if (gone) return 'disabled';
  return retry ? 'retrying' : 'failed';
}
