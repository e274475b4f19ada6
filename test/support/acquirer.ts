/**
 * The simulated acquirer with its books on the test stack's table, for suites that call the domain
 * with an acquirer of their own (a chosen clock, a spy around it).
 */
import type { Acquirer } from '../../shared/acquirer/acquirer.ts';
import { createSimulatedAcquirer } from '../../shared/acquirer/simulated.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { useLocalEnvironment } from './stack.ts';

/** A simulated acquirer keeping its books in the test stack's table; `clock` decides card expiry and ledger times. */
export function simulatedAcquirer(clock?: () => Date): Acquirer {
  useLocalEnvironment();
  const { db, table } = makeDeps();
  return createSimulatedAcquirer({ ledger: { db, table }, ...(clock ? { clock } : {}) });
}
