/** The demo account `npm start` creates on first start and prints every time. */
import { createAccount, findApiKey, getAccount } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/deps.ts';
import type { DemoAccount, LocalInfo } from './stack.ts';

/** The demo account of this stack: the one recorded in local.json if its store still has it, else a new one. */
export async function ensureDemoAccount(info: LocalInfo): Promise<{ demo: DemoAccount; created: boolean }> {
  const deps = makeDeps();
  if (info.demo && (await getAccount(deps, info.demo.developer_id)))
    return { demo: info.demo, created: false };
  const created = await createAccount(deps, {
    name: 'Demo Merchant',
    email: 'demo@cobro.local',
    company_name: 'Demo Merchant',
    page: 'https://example.com',
  });
  const demo: DemoAccount = {
    developer_id: created.account.developer_id,
    name: created.account.name,
    email: created.account.email,
    test_key: created.testKey,
    live_key: created.liveKey,
    client_id: created.account.client_id,
    client_secret: created.clientSecret,
  };
  return { demo, created: true };
}

/** Whether a recorded demo key still authenticates (it may have been rotated since). */
export async function keyIsCurrent(key: string): Promise<boolean> {
  return (await findApiKey(makeDeps(), key)) !== undefined;
}
