/** Scheduled: the recurring billing step (D2, D14), everything due now; `billing run` is the same. */
import { configuredAcquirer } from '../../shared/acquirer/configured.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';

const deps = { ...makeDeps(), acquirer: configuredAcquirer() };

export const handler = async () => runBilling(deps, deps.clock());
