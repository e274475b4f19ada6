/**
 * Target of `billing.partition.due`: the billing of one partition of the due indexes at the tick's
 * time (subscriptions and recurring payment links of that shard), logged as one summary line. A
 * partition not done when the invocation nears its time-out is handed on to a fresh one.
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
import { billPartition } from '../../shared/ledger/billing.ts';

const deps = { ...acquirerDeps(), bus: busPublisher() };

export const handler = async (event: EventBridgeEvent<string, PartitionDue>, context?: Context) => {
  const due = readPartitionDue(event.detail);
  const account = due.developer_id === undefined ? undefined : { developerId: due.developer_id };
  return runPartition(deps, partitionRuns.billing, due, context, (stop) =>
    billPartition(deps, new Date(due.at), due.partition, account, stop),
  );
};
