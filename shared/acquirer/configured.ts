/**
 * The acquirer this stage charges through: every account's mode connected to its own connector
 * (connected.ts, docs/design.md#connectors): the simulated acquirer, or the account's Stripe account.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { envNames, requireEnv } from '../core/config.ts';
import { type Deps, makeDeps, newDocumentClient } from '../db/deps.ts';
import type { Acquirer } from './acquirer.ts';
import { connectedAcquirer, type StripeFactory } from './connected.ts';
import { connectorSecrets } from './connection.ts';
import { type FaultSource, processFaults, remoteFaults } from './faults.ts';
import { createSimulatedAcquirer } from './simulated.ts';

/**
 * The Stripe connector of a connected mode, its key opened. The package is loaded the first time a
 * mode connected to Stripe is met, so a function that never meets one never starts it.
 */
const stripeConnector: StripeFactory = async (record, stripe) => {
  const { createStripeConnector } = await import('./stripe.ts');
  const apiUrl = process.env[envNames.stripeApiUrl];
  return createStripeConnector({
    secretKey: await connectorSecrets().open(stripe.secret_key),
    accountId: stripe.account_id,
    developerId: record.developer_id,
    mode: record.mode,
    ...(apiUrl ? { apiUrl } : {}),
  });
};

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

/** The simulated acquirer, its books in this stage's table. */
function simulatedAcquirer(): Acquirer {
  return createSimulatedAcquirer({
    ledger: { db: simulatedLedgerClient(), table: requireEnv(envNames.table) },
    // Empty unless the local stack's control server fills it: a deployed stage never sees a fault.
    // A function the local stack runs apart (rehearsal), or the CLI on a local stack, asks the
    // stack's registry instead.
    faults: faultsFromEnvironment(),
  });
}

/** The acquirer of this stage: each call to the connector of its account's mode. */
export function configuredAcquirer(deps: Deps = makeDeps()): Acquirer {
  return connectedAcquirer(deps, { simulated: simulatedAcquirer(), stripe: stripeConnector });
}

/**
 * What a run that moves money is built from (billing, payouts, recovery, reconciliation, the money
 * endpoints): the table and the acquirer this deployment charges through. The scheduled functions
 * and the operator CLI build it alike, so a CLI run is the scheduled one.
 */
export function acquirerDeps(): Deps & { acquirer: Acquirer } {
  const deps = makeDeps();
  return { ...deps, acquirer: configuredAcquirer(deps) };
}
