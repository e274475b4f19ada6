/**
 * Scheduled (every minute deployed, every two seconds locally): recovery finishes the money
 * movements whose outcome is unknown, asking the acquirer by each attempt's key (docs/design.md#recovery).
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { logger } from '../../shared/core/log.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { runRecovery } from '../../shared/ledger/recovery.ts';

const deps = { ...acquirerDeps(), baseUrl: publicBaseUrl() };

export const handler = async () => {
  const summary = await runRecovery(deps, deps.clock());
  if (summary.due > 0) logger.info('recovery run', { ...summary });
  return summary;
};
