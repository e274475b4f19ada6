/**
 * The acquirer this deployment charges through. Only the simulated acquirer (test cards) exists today;
 * a real one (a class implementing `Acquirer`) is added here and chosen with `ACQUIRER`.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { envNames, requireEnv } from '../core/config.ts';
import { type Deps, makeDeps, newDocumentClient } from '../db/deps.ts';
import type { Acquirer } from './acquirer.ts';
import { type FaultSource, processFaults, remoteFaults } from './faults.ts';
import { createSimulatedAcquirer } from './simulated.ts';

let ledgerDb: DynamoDBDocumentClient | undefined;

/**
 * The simulated acquirer's own client, one per process: its books share cobro's table, but its calls
 * are the acquirer's, not cobro's, so whatever counts cobro's client (the benchmarks) never sees them.
 */
export function simulatedLedgerClient(): DynamoDBDocumentClient {
  ledgerDb ??= newDocumentClient();
  return ledgerDb;
}

/**
 * This process's registry, or the local stack's when this process works on one apart from it (a
 * rehearsal function, the operator CLI): the stack's control server then counts its hits by the
 * function's name, or by this process's id.
 */
function faultsFromEnvironment(): FaultSource {
  const url = process.env[envNames.faultsUrl];
  const token = process.env[envNames.faultsToken];
  if (!url || !token) return processFaults;
  return remoteFaults(url, token, process.env.AWS_LAMBDA_FUNCTION_NAME || `pid ${process.pid}`);
}

export function configuredAcquirer(): Acquirer {
  const name = process.env.ACQUIRER ?? 'simulated';
  if (name === 'simulated') {
    return createSimulatedAcquirer({
      ledger: { db: simulatedLedgerClient(), table: requireEnv(envNames.table) },
      // Empty unless the local stack's control server fills it: a deployed stage never sees a fault.
      // A function the local stack runs apart (rehearsal), or the CLI on a local stack, asks the
      // stack's registry instead.
      faults: faultsFromEnvironment(),
    });
  }
  throw new Error(`unknown ACQUIRER ${name}: only "simulated" is built in`);
}

/**
 * What a run that moves money is built from (billing, payouts, recovery, reconciliation, the money
 * endpoints): the table and the acquirer this deployment charges through. The scheduled functions
 * and the operator CLI build it alike, so a CLI run is the scheduled one.
 */
export function acquirerDeps(): Deps & { acquirer: Acquirer } {
  return { ...makeDeps(), acquirer: configuredAcquirer() };
}
