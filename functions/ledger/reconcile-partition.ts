/**
 * Target of `reconciliation.partition.due`: one partition's reconciliation over the two days before
 * the tick (docs/design.md#reconciliation); every mismatch is logged as an error, and the
 * partition's summary as one line.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { logger } from '../../shared/core/log.ts';
import {
  type PartitionDue,
  partitionRuns,
  readPartitionDue,
  runPartition,
} from '../../shared/events/partitions.ts';
import { busPublisher } from '../../shared/events/publish.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { reconcile } from '../../shared/ledger/reconcile.ts';

const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl(), bus: busPublisher() };

/** How far back a daily run compares: two days, so a day missed is still covered by the next. */
const window = 2 * 86_400_000;

export const handler = async (event: EventBridgeEvent<string, PartitionDue>) => {
  const due = readPartitionDue(event.detail);
  const until = new Date(due.at);
  // Not handed on when short of time: the comparison is not a due index walked from its head.
  return runPartition(deps, partitionRuns.reconciliation, due, undefined, async () => {
    const report = await reconcile(deps, {
      since: new Date(until.getTime() - window),
      until,
      partition: due.partition,
      ...(due.developer_id === undefined ? {} : { developerId: due.developer_id }),
    });
    for (const mismatch of report.mismatches)
      logger.error('the books disagree', { partition: due.partition, ...mismatch });
    return {
      since: report.since,
      until: report.until,
      recovered: report.recovery.due,
      acquirer: report.acquirer,
      cobro: report.cobro,
      mismatches: report.mismatches.length,
    };
  });
};
