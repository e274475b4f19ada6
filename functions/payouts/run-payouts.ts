/**
 * Scheduled payout step: pays out the live charges that are due (made two days ago or more); the
 * CLI runs the same step.
 */

import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { logger } from '../../shared/core/log.ts';
import { runPayouts } from '../../shared/payouts/run.ts';

const deps = acquirerDeps();

export const handler = async (): Promise<void> => {
  const summary = await runPayouts(deps, deps.clock());
  logger.info('payouts run', {
    paid_out: summary.paid_out,
    totals: summary.totals,
    refused: summary.refused,
    unconfirmed: summary.unconfirmed,
  });
};
