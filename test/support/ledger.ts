/**
 * The two sets of books in tests (docs/design.md#reconciliation): cobro's records against the
 * acquirers' own (the simulated acquirer's ledger, the Stripe stand-in's objects), compared by the
 * same reconciliation the CLI runs, for one account.
 */
import { expect } from 'vitest';
import { configuredAcquirer } from '../../shared/acquirer/configured.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { type ReconcileReport, reconcile } from '../../shared/ledger/reconcile.ts';
import { apiUrl, useLocalEnvironment } from './stack.ts';

/** Reconciles one account's books since `since` (recovery first, as the CLI does). */
export async function reconcileAccount(developerId: number, since: Date): Promise<ReconcileReport> {
  useLocalEnvironment();
  // Every connector's books: the simulated acquirer's, and each Stripe account connected at the stand-in.
  const base = makeDeps();
  const deps = { ...base, acquirer: configuredAcquirer(base), baseUrl: apiUrl };
  return reconcile(deps, { since, until: new Date(), developerId });
}

/** Asserts the account's books agree, and answers the report (its counts tell what moved). */
export async function expectBooksAgree(developerId: number, since: Date): Promise<ReconcileReport> {
  const report = await reconcileAccount(developerId, since);
  expect(report.mismatches).toEqual([]);
  expect(report.acquirer).toEqual(report.cobro);
  return report;
}

/** Kept for the suites that still import it from here: import it from ./eventually.ts. */
export { eventually } from './eventually.ts';
