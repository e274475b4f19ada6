/**
 * Target of `recovery.partition.due`: recovery of one partition of the recovery index, asking the
 * acquirer by each attempt's key (docs/design.md#recovery). It recovers at the present, not at the
 * tick's time: the lease it takes on an attempt runs from now. It runs every minute for every
 * partition, so it logs its summary only when the partition had something due.
 */
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import {
  type PartitionDue,
  partitionRuns,
  readPartitionDue,
  runPartition,
} from '../../shared/events/partitions.ts';
import { busPublisher } from '../../shared/events/publish.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { runRecovery } from '../../shared/ledger/recovery.ts';

const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl(), bus: busPublisher() };

export const handler = async (event: EventBridgeEvent<string, PartitionDue>, context?: Context) => {
  const due = readPartitionDue(event.detail);
  return runPartition(
    deps,
    partitionRuns.recovery,
    due,
    context,
    (stop) => runRecovery(deps, deps.clock(), { shard: due.partition, stop }),
    (summary) => summary.due > 0,
  );
};
