/** The retry sweep (the `webhooks-retry` schedule): hands the tasks due again to the delivery function. */
import type { Deps } from '../db/deps.ts';
import { type BusPublisher, putEventsBatch } from '../events/publish.ts';
import { dueTasks } from './repository.ts';
import { type TaskDueDetail, taskDue } from './task-due.ts';

/** Tasks a sweep hands over at most (per shard of the due index); the next sweep takes the rest. */
const sweepLimit = 500;

/** The retry sweep: hands every task due at `now` to the delivery function (handOver). */
export async function handDueTasks(deps: Deps & { bus: BusPublisher }, now: Date): Promise<number> {
  return handOver(deps, await dueTasks(deps, now, sweepLimit), now);
}

/**
 * Hands tasks to the delivery function through the bus, each on its own (so one slow receiver delays
 * no other), to run at `now`. A task handed twice runs once (the claim). Answers how many the bus
 * took: what it did not take stays due, and the next sweep hands it over.
 */
export async function handOver(
  deps: { bus: BusPublisher },
  due: readonly { pk: string; sk: string }[],
  now: Date,
): Promise<number> {
  const entries = due.map((key) => ({
    source: taskDue.source,
    type: taskDue.type,
    detail: { pk: key.pk, sk: key.sk, at: now.toISOString() } satisfies TaskDueDetail,
  }));
  for (let start = 0; start < entries.length; start += putEventsBatch) {
    const failed = await deps.bus.send(entries.slice(start, start + putEventsBatch));
    if (failed >= 0) return start + failed;
  }
  return entries.length;
}
