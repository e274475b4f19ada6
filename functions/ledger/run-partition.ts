/**
 * Target of every partition entry (shared/events/partitions.ts): one partition of a fanned-out run,
 * at the tick's time, logged as one summary line.
 * - `billing.partition.due`: the subscriptions and recurring payment links of that shard of the due
 *   indexes (docs/design.md#billing); handed on to a fresh invocation when this one nears its
 *   time-out.
 * - `recovery.partition.due`: the attempts of that shard of the recovery index, recovered at the
 *   present (the lease it takes runs from now), handed on likewise; a line only when some were due
 *   (it runs every minute).
 * - `reconciliation.partition.due`: the movements of that partition over the two days before the
 *   tick, compared on both sides (docs/design.md#reconciliation); every mismatch logged as an error.
 * One function for the three runs: each is one rule target, and each target costs the stack its own
 * role, log group, rule and invoke permission.
 */
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { observed } from '../../shared/core/invocation.ts';
import { logger } from '../../shared/core/log.ts';
import { countRun, metricNames } from '../../shared/core/metrics.ts';
import {
  type PartitionDue,
  type PartitionRun,
  partitionRuns,
  readPartitionDue,
  runPartition,
} from '../../shared/events/partitions.ts';
import { busPublisher } from '../../shared/events/publish.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { billPartition } from '../../shared/ledger/billing.ts';
import { reconcile } from '../../shared/ledger/reconcile.ts';
import { runRecovery } from '../../shared/ledger/recovery.ts';

const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl(), bus: busPublisher() };

/** How far back a daily reconciliation compares: two days, so a day missed is covered by the next. */
const reconcileWindowMs = 2 * 86_400_000;

// Each partition counts its own part of a run's metrics: CloudWatch sums them over the run.
const bill = (due: PartitionDue, context: Context | undefined) =>
  runPartition(deps, partitionRuns.billing, due, context, async (stop) => {
    const summary = await billPartition(
      deps,
      new Date(due.at),
      due.partition,
      due.developer_id === undefined ? undefined : { developerId: due.developer_id },
      stop,
    );
    const links = summary.payment_links;
    countRun(metricNames.billingDue, summary.due + links.due);
    countRun(metricNames.billingRenewed, summary.renewed);
    countRun(metricNames.billingPaymentFailed, summary.payment_failed);
    countRun(metricNames.billingCanceled, summary.canceled);
    countRun(metricNames.billingFailures, summary.failed + links.failed);
    return summary;
  });

const recover = (due: PartitionDue, context: Context | undefined) =>
  runPartition(
    deps,
    partitionRuns.recovery,
    due,
    context,
    async (stop) => {
      const summary = await runRecovery(deps, deps.clock(), { shard: due.partition, stop });
      countRun(metricNames.attemptsRecovered, summary.succeeded + summary.declined + summary.failed);
      countRun(metricNames.recoveryErrors, summary.errors);
      return summary;
    },
    (summary) => summary.due > 0,
  );

// Not handed on when short of time: the comparison is not a due index worked from its head.
const reconcilePartition = (due: PartitionDue) =>
  runPartition(deps, partitionRuns.reconciliation, due, undefined, async () => {
    const until = new Date(due.at);
    const report = await reconcile(deps, {
      since: new Date(until.getTime() - reconcileWindowMs),
      until,
      partition: due.partition,
      ...(due.developer_id === undefined ? {} : { developerId: due.developer_id }),
    });
    for (const mismatch of report.mismatches)
      logger.error('the books disagree', { partition: due.partition, ...mismatch });
    countRun(metricNames.reconciliationMismatches, report.mismatches.length);
    return {
      since: report.since,
      until: report.until,
      recovered: report.recovery.due,
      acquirer: report.acquirer,
      cobro: report.cobro,
      mismatches: report.mismatches.length,
    };
  });

export const handler = observed(async (event: EventBridgeEvent<string, unknown>, context?: Context) => {
  const due = readPartitionDue(event.detail);
  const type = event['detail-type'] as PartitionRun;
  if (type === partitionRuns.billing) return bill(due, context);
  if (type === partitionRuns.recovery) return recover(due, context);
  if (type === partitionRuns.reconciliation) return reconcilePartition(due);
  throw new Error(`no partition run is called ${type}`);
});
