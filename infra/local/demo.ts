/** The demo account `npm start` creates on first start and prints every time, with its dashboard admin. */
import { createAccount, credentialsOf, findApiKey, getAccount } from '../../shared/accounts/repository.ts';
import {
  ConnectionChanged,
  getConnectionRecord,
  newConnection,
  putConnection,
} from '../../shared/acquirer/connection.ts';
import { envNames } from '../../shared/core/config.ts';
import { Conflict } from '../../shared/core/errors.ts';
import { stageSecret, tokenKeys } from '../../shared/core/secrets.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { audit } from '../../shared/team/audit.ts';
import { accessUrl, type LinkPurpose, linkLifetimeMs, makeLink } from '../../shared/team/links.ts';
import { addUser, cliActor, findUserByEmail, type TeamUser } from '../../shared/team/users.ts';
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

/** The demo account's admin and the one-time link the banner prints for it. */
export interface DemoAdminLink {
  email: string;
  /** `sign_in` for the admin as made here; `set_password` should it be an invited user. */
  purpose: LinkPurpose;
  url: string;
  /** Whether the admin has set a password since (then it signs in with it too). */
  hasPassword: boolean;
}

/**
 * The demo account's dashboard admin, whose e-mail is the demo account's own: made the first time
 * (active, with no password: it signs in through the link until it sets one under Your profile),
 * found by its e-mail on every later start, so a persistent stack keeps one. Each start makes it a
 * fresh one-time link, valid 24 hours: the banner prints it. Undefined when the address is a user
 * of another account (an operator's doing): the banner then says how to add one.
 */
export async function demoAdminLink(demo: DemoAccount): Promise<DemoAdminLink | undefined> {
  const deps = makeDeps();
  let user: TeamUser | undefined = await findUserByEmail(deps, demo.email);
  if (!user) {
    const added = await addUser(deps, {
      developerId: demo.developer_id,
      email: demo.email,
      role: 'admin',
      addedBy: cliActor.user_id,
      active: true,
    });
    if (added.added) {
      user = added.user;
      await audit(deps, {
        developerId: demo.developer_id,
        actor: cliActor,
        action: 'user.add',
        record: user.user_id,
        detail: `${user.email} as ${user.role}`,
        address: 'cli',
      });
    } else user = await findUserByEmail(deps, demo.email);
  }
  if (!user || user.developer_id !== demo.developer_id) return undefined;
  // Only an active user signs in: an invited one (never so as made here) gets its password set first.
  const purpose: LinkPurpose = user.status === 'active' ? 'sign_in' : 'set_password';
  const token = await makeLink(deps, tokenKeys(stageSecret(envNames.fingerprintSecret)), {
    userId: user.user_id,
    developerId: user.developer_id,
    purpose,
    lifetimeMs: linkLifetimeMs.first,
  });
  return {
    email: user.email,
    purpose,
    url: accessUrl(publicBaseUrl(), token),
    hasPassword: user.password_hash !== undefined,
  };
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
