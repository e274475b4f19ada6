/**
 * The simulated acquirer with its books on the test stack's table, for suites that call the domain
 * with an acquirer of their own (a chosen clock, a spy around it).
 */
import type { Acquirer } from '../../shared/acquirer/acquirer.ts';
import { type AcquirerFault, FaultRegistry } from '../../shared/acquirer/faults.ts';
import { createSimulatedAcquirer } from '../../shared/acquirer/simulated.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { useLocalEnvironment } from './stack.ts';

/**
 * A simulated acquirer keeping its books in the test stack's table; `clock` decides card expiry and
 * ledger times; `faults` are this process's own (the stack's control server arms the stack's).
 */
export function simulatedAcquirer(clock?: () => Date, faults?: FaultRegistry): Acquirer {
  useLocalEnvironment();
  const { db, table } = makeDeps();
  return createSimulatedAcquirer({
    ledger: { db, table },
    ...(clock ? { clock } : {}),
    ...(faults ? { faults } : {}),
  });
}

/** A simulated acquirer of this process with `faults` armed; the registry, to clear or change them. */
export function faultyAcquirer(faults: AcquirerFault[], clock?: () => Date) {
  const registry = new FaultRegistry();
  registry.set(faults);
  return { acquirer: simulatedAcquirer(clock, registry), registry };
}
