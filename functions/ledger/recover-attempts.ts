/**
 * Scheduled (every minute deployed, every two seconds locally): recovery finishes the money
 * movements whose outcome is unknown, asking the acquirer by each attempt's key (docs/design.md#recovery).
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { observed } from '../../shared/core/invocation.ts';
import { logger } from '../../shared/core/log.ts';
import { countRun, metricNames } from '../../shared/core/metrics.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { runRecovery } from '../../shared/ledger/recovery.ts';

const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl() };

export const handler = observed(async () => {
  const summary = await runRecovery(deps, deps.clock());
  countRun(metricNames.attemptsRecovered, summary.succeeded + summary.declined + summary.failed);
  countRun(metricNames.recoveryErrors, summary.errors);
  if (summary.due > 0) logger.info('recovery run', { ...summary });
  return summary;
});
