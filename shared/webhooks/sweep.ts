/** The retry sweep (the `webhooks-retry` schedule): hands the tasks due again to the delivery function. */
import type { Scope } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { keys } from '../db/keys.ts';
import { type BusPublisher, putEventsBatch } from '../events/publish.ts';
import { dueTasks } from './repository.ts';
import { type TaskDueDetail, taskDue } from './task-due.ts';

/** Tasks a sweep hands over at most (per shard of the due index); the next sweep takes the rest. */
const sweepLimit = 500;

/**
 * The retry sweep: hands every task due at `now` to the delivery function through the bus (each
 * on its own, so one slow receiver delays no other). A task handed twice runs once (the claim).
 * `only` limits it to one endpoint's tasks (an operator retrying one receiver; tests that run
 * the sweep at times of their own on a shared stack).
 */
export async function handDueTasks(
  deps: Deps & { bus: BusPublisher },
  now: Date,
  only?: { developerId: number; mode: Scope['mode']; endpointId: string },
): Promise<number> {
  const partition = only && keys.webhookEndpoint(only.developerId, only.mode, only.endpointId).pk;
  const due = (await dueTasks(deps, now, sweepLimit)).filter((key) => !partition || key.pk === partition);
  const entries = due.map((key) => ({
    source: taskDue.source,
    type: taskDue.type,
    detail: { ...key, at: now.toISOString() } satisfies TaskDueDetail,
  }));
  for (let start = 0; start < entries.length; start += putEventsBatch) {
    const failed = await deps.bus.send(entries.slice(start, start + putEventsBatch));
    // What the bus did not take stays due: the next sweep hands it over.
    if (failed >= 0) return start + failed;
  }
  return entries.length;
}
