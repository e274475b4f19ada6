/**
 * Recovery with every area's finisher (docs/design.md#recovery): checkout submits, renewals and trial
 * ends, the legacy charge, refunds and payouts. Deployed it runs every minute, one worker per
 * partition of the recovery index; locally every two seconds; and first thing in every
 * reconciliation (`npm run -s cli -- reconcile`).
 */
import type { Acquirer } from '../acquirer/acquirer.ts';
import { type Finishers, type RecoverySummary, recoverAttempts } from '../attempts/recovery.ts';
import { legacyFinisher } from '../charges/service.ts';
import { checkoutFinisher } from '../checkout/recovery.ts';
import type { Deps } from '../db/deps.ts';
import type { RunPart } from '../db/due.ts';
import { payoutFinisher } from '../payouts/run.ts';
import { refundFinisher } from '../refunds/service.ts';
import { renewalFinisher } from '../subscriptions/billing.ts';
import { changeFinisher } from '../subscriptions/update.ts';
import { sessionOwners } from './owners.ts';

/** What recovery runs with: the table, the acquirer, and the public base URL events name pages by. */
export type LedgerDeps = Deps & { acquirer: Acquirer; baseUrl: string };

export function finishers(deps: LedgerDeps): Finishers {
  return {
    checkout: checkoutFinisher({ ...deps, owners: sessionOwners(deps) }),
    renewal: renewalFinisher(deps),
    change: changeFinisher(deps),
    legacy: legacyFinisher(deps),
    refund: refundFinisher(deps),
    payout: payoutFinisher(deps),
  };
}

/**
 * Finishes every attempt whose recovery time has come at `now`, of every partition of the recovery
 * index or of `part.shard` alone, until `part.stop`.
 */
export const runRecovery = (deps: LedgerDeps, now: Date, part: RunPart = {}): Promise<RecoverySummary> =>
  recoverAttempts(deps, finishers(deps), now, part);
