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
 * The run's summary was once returned to EventBridge, which drops it: it is logged and counted
 * instead (subscriptions and recurring links together), so a failing step raises an alarm.
 */
export const handler = observed(async () => {
  const summary = await runAllBilling(deps, deps.clock());
  const links = summary.payment_links;
  countRun(metricNames.billingDue, summary.due + links.due);
  countRun(metricNames.billingRenewed, summary.renewed + links.pending_period);
  countRun(metricNames.billingPaymentFailed, summary.payment_failed);
  countRun(metricNames.billingCanceled, summary.canceled);
  countRun(metricNames.billingFailures, summary.failed + links.failed);
  logger.info('billing run', { ...summary });
  return summary;
});
