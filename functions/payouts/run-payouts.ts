/**
 * Scheduled payout step: pays out the live charges that are due (made two days ago or more); the
 * CLI runs the same step.
 */

import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { observed } from '../../shared/core/invocation.ts';
import { logger } from '../../shared/core/log.ts';
import { countRun, metricNames } from '../../shared/core/metrics.ts';
import { runPayouts } from '../../shared/payouts/run.ts';

const deps = acquirerDeps();

export const handler = observed(async (): Promise<void> => {
  const summary = await runPayouts(deps, deps.clock());
  countRun(metricNames.payoutsPaidOut, summary.paid_out);
  countRun(metricNames.payoutsRefused, summary.refused);
  countRun(metricNames.payoutsUnconfirmed, summary.unconfirmed);
  logger.info('payouts run', {
    paid_out: summary.paid_out,
    totals: summary.totals,
    refused: summary.refused,
    unconfirmed: summary.unconfirmed,
  });
});
