/**
 * Scheduled: the recurring billing step (docs/design.md#billing), everything due now: subscriptions
 * and recurring payment links; `billing run` is the same.
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { runAllBilling } from '../../shared/ledger/billing.ts';

const deps = acquirerDeps();

export const handler = () => runAllBilling(deps, deps.clock());
