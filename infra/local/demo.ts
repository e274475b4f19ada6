/** The demo account `npm start` creates on first start and prints every time. */
import { createAccount, credentialsOf, findApiKey, getAccount } from '../../shared/accounts/repository.ts';
import { Conflict } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import type { DemoAccount, LocalInfo } from './info.ts';

/** The demo account of this stack: the one recorded in local.json if its store still has it, else a new one. */
export async function ensureDemoAccount(info: LocalInfo): Promise<{ demo: DemoAccount; created: boolean }> {
  const deps = makeDeps();
  if (info.demo && (await getAccount(deps, info.demo.developer_id)))
    return { demo: info.demo, created: false };
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

/** Whether a recorded demo key still authenticates (it may have been rotated since). */
export async function keyIsCurrent(key: string): Promise<boolean> {
  return (await findApiKey(makeDeps(), key)) !== undefined;
}
