/**
 * The acquirer this deployment charges through. Only the simulated acquirer of D7 exists today;
 * a real one (a class implementing `Acquirer`) is added here and chosen with `ACQUIRER`.
 */
import type { Acquirer } from './acquirer.ts';
import { createSimulatedAcquirer } from './simulated.ts';

export function configuredAcquirer(): Acquirer {
  const name = process.env.ACQUIRER ?? 'simulated';
  if (name === 'simulated') return createSimulatedAcquirer();
  throw new Error(`unknown ACQUIRER ${name}: only "simulated" is built in`);
}
