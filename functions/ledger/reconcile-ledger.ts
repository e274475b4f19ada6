/**
 * Scheduled daily: reconciliation of the last two days (docs/design.md#reconciliation), the
 * acquirer's books against cobro's; every mismatch is logged as an error
 * (`npm run -s cli -- reconcile` runs the same on demand).
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { observed } from '../../shared/core/invocation.ts';
import { logger } from '../../shared/core/log.ts';
import { countRun, metricNames } from '../../shared/core/metrics.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { reconcile } from '../../shared/ledger/reconcile.ts';

const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl() };

export const handler = observed(async () => {
  const until = deps.clock();
  const report = await reconcile(deps, { since: new Date(until.getTime() - 2 * 86_400_000), until });
  for (const mismatch of report.mismatches) logger.error('the books disagree', { ...mismatch });
  countRun(metricNames.reconciliationMismatches, report.mismatches.length);
  logger.info('reconciliation', {
    since: report.since,
    until: report.until,
    acquirer: report.acquirer,
    cobro: report.cobro,
    mismatches: report.mismatches.length,
  });
  return { mismatches: report.mismatches.length };
});
