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

/**
 * Polls `check` every 100 ms until it answers something other than undefined, for up to
 * `timeoutMs`; fails with `what` otherwise.
 */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
