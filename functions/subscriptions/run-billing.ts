/**
 * Scheduled (every 15 minutes): the billing run's dispatcher (docs/design.md#billing). It bills
 * nothing itself: it puts one `billing.partition.due` entry per partition of the due indexes on the
 * bus, and each partition's worker (functions/ledger/run-partition.ts) bills that partition, so a
 * run grows out with the shard count. `billing run` runs every partition in its own process instead.
 */
import type { ScheduledEvent } from 'aws-lambda';
import { observed } from '../../shared/core/invocation.ts';
import { logger } from '../../shared/core/log.ts';
import { handOutPartitions, partitionRuns } from '../../shared/events/partitions.ts';
import { busPublisher } from '../../shared/events/publish.ts';

const bus = busPublisher();

export const handler = observed(async (event?: Partial<ScheduledEvent>) => {
  // A retried delivery of the same scheduled event keeps its id, and so the tick's.
  const handed = await handOutPartitions(bus, partitionRuns.billing, {
    at: new Date(),
    ...(event?.id ? { runId: event.id } : {}),
  });
  logger.info('billing run handed out', { run_id: handed.runId, partitions: handed.partitions });
  return handed;
});
