/**
 * Scheduled: the recurring billing step (docs/design.md#billing), everything due now: subscriptions
 * and recurring payment links; `billing run` is the same.
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { observed } from '../../shared/core/invocation.ts';
import { logger } from '../../shared/core/log.ts';
import { countRun, metricNames } from '../../shared/core/metrics.ts';
import { runAllBilling } from '../../shared/ledger/billing.ts';

const deps = acquirerDeps();

/**
 * EventBridge drops what a scheduled target returns: the run's summary is logged and counted
 * (subscriptions and recurring links together), so that a failing step raises an alarm.
 */
export const handler = observed(async () => {
  const summary = await runAllBilling(deps, deps.clock());
  const links = summary.payment_links;
  countRun(metricNames.billingDue, summary.due + links.due);
  countRun(metricNames.billingRenewed, summary.renewed);
  countRun(metricNames.billingPaymentFailed, summary.payment_failed);
  countRun(metricNames.billingCanceled, summary.canceled);
  countRun(metricNames.billingFailures, summary.failed + links.failed);
  logger.info('billing run', { ...summary });
  return summary;
});
