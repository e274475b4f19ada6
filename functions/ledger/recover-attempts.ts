/**
 * Scheduled (every minute deployed, every two seconds locally): recovery's dispatcher. It puts one
 * `recovery.partition.due` entry per partition of the recovery index on the bus; each partition's
 * worker (run-partition.ts) finishes the attempts of that partition whose outcome is unknown
 * (docs/design.md#recovery).
 */
import type { ScheduledEvent } from 'aws-lambda';
import { observed } from '../../shared/core/invocation.ts';
import { handOutPartitions, partitionRuns } from '../../shared/events/partitions.ts';
import { busPublisher } from '../../shared/events/publish.ts';

const bus = busPublisher();

export const handler = observed((event?: Partial<ScheduledEvent>) =>
  handOutPartitions(bus, partitionRuns.recovery, {
    at: new Date(),
    ...(event?.id ? { runId: event.id } : {}),
  }),
);
