/** The webhook retry sweep as tests run it: at a time of their own, on their own endpoint's tasks. */
import { makeDeps } from '../../shared/db/deps.ts';
import { busPublisher } from '../../shared/events/publish.ts';
import { webhookKeys } from '../../shared/webhooks/keys.ts';
import { dueTasks } from '../../shared/webhooks/repository.ts';
import { handOver } from '../../shared/webhooks/sweep.ts';

/**
 * The retry sweep's two steps at `now` (the tasks due by then, handed to the delivery function to
 * run at that time), for the test-mode tasks of one endpoint: the other suites on the shared stack
 * keep their tasks to their own times. Answers how many it handed over.
 */
export async function sweepEndpointAt(now: Date, developerId: number, endpointId: string): Promise<number> {
  const deps = { ...makeDeps(), bus: busPublisher() };
  const partition = webhookKeys.endpoint(developerId, 'test', endpointId).pk;
  // Past what the schedule reads per shard, so the suites' future retries cannot crowd ours out.
  const due = await dueTasks(deps, now, 5_000);
  return handOver(
    deps,
    due.filter((key) => key.pk === partition),
    now,
  );
}
