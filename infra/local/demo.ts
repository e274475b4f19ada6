/** The demo account `npm start` creates on first start and prints every time. */
import { createAccount, credentialsOf, findApiKey, getAccount } from '../../shared/accounts/repository.ts';
import {
  ConnectionChanged,
  getConnectionRecord,
  newConnection,
  putConnection,
} from '../../shared/acquirer/connection.ts';
import { Conflict } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import type { DemoAccount, LocalInfo } from './info.ts';

/** The demo account of this stack: the one recorded in local.json if its store still has it, else a new one. */
export async function ensureDemoAccount(info: LocalInfo): Promise<{ demo: DemoAccount; created: boolean }> {
  const deps = makeDeps();
  if (info.demo && (await getAccount(deps, info.demo.developer_id))) {
    await connectSimulatedLive(info.demo.developer_id);
    return { demo: info.demo, created: false };
  }
  const profile = { name: 'Demo Merchant', company_name: 'Demo Merchant', page: 'https://example.com' };
  try {
    return {
      demo: credentialsOf(await createAccount(deps, { ...profile, email: 'demo@cobro.local' })),
      created: true,
    };
  } catch (error) {
    // The store has a demo account whose keys local.json no longer records (only hashes are
    // stored, so they cannot be recovered): make a fresh one beside it.
    if (!(error instanceof Conflict)) throw error;
    const email = `demo+${Date.now()}@cobro.local`;
    return { demo: credentialsOf(await createAccount(deps, { ...profile, email })), created: true };
  }
}

/**
 * A demo account made before connections existed has no live connection: the local stack connects
 * its live mode to the simulated acquirer, as it does for every account it creates now. One the
 * operator disconnected on purpose (`--live none`) stays so.
 */
async function connectSimulatedLive(developerId: number): Promise<void> {
  const deps = makeDeps();
  if (await getConnectionRecord(deps, developerId, 'live')) return;
  const record = newConnection({ developerId, mode: 'live', connector: 'simulated', now: deps.clock() });
  await putConnection(deps, record, undefined).catch((error: unknown) => {
    if (!(error instanceof ConnectionChanged)) throw error;
  });
}

/** Whether a recorded demo key still authenticates (it may have been rotated since). */
export async function keyIsCurrent(key: string): Promise<boolean> {
  return (await findApiKey(makeDeps(), key)) !== undefined;
}
