/**
 * Scheduled daily: reconciliation's dispatcher (docs/design.md#reconciliation). It puts one
 * `reconciliation.partition.due` entry per partition on the bus; each partition's worker
 * (run-partition.ts) compares the acquirer's books with cobro's for the movements of that
 * partition over the two days before the tick (`npm run -s cli -- reconcile` does every partition
 * at once, on demand).
 */
import type { ScheduledEvent } from 'aws-lambda';
import { observed } from '../../shared/core/invocation.ts';
import { handOutPartitions, partitionRuns } from '../../shared/events/partitions.ts';
import { busPublisher } from '../../shared/events/publish.ts';

const bus = busPublisher();

export const handler = observed((event?: Partial<ScheduledEvent>) =>
  handOutPartitions(bus, partitionRuns.reconciliation, {
    at: new Date(),
    ...(event?.id ? { runId: event.id } : {}),
  }),
);
