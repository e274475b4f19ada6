/**
 * Dashboard users for tests, made through the team area's own repository (as `users add
 * --password-stdin` makes them) against the local stack's table: an e-mail unique to the run, a
 * password known to the test, and, when asked, a second factor whose secret the test holds (sealed
 * onto the user as an enrolment would leave it), so the test makes its codes itself (./totp.ts).
 */
import { randomUUID } from 'node:crypto';
import { findApiKey } from '../../shared/accounts/repository.ts';
import type { Mode } from '../../shared/core/account.ts';
import { stageSessionKeys } from '../../shared/dashboard/session.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { teamKeys } from '../../shared/team/keys.ts';
import { accessUrl, type LinkPurpose, linkLifetimeMs, makeLink } from '../../shared/team/links.ts';
import { hashPassword } from '../../shared/team/password.ts';
import type { Role } from '../../shared/team/roles.ts';
import { newTotpSecret } from '../../shared/team/totp.ts';
import { twoFactorBox } from '../../shared/team/two-factor.ts';
import { addUser, type TeamUser } from '../../shared/team/users.ts';
import { apiUrl, useLocalEnvironment } from './stack.ts';
import { updateStored } from './table.ts';

export interface TestUser {
  user: TeamUser;
  email: string;
  password: string;
  /** The base32 TOTP secret, when the user has a second factor. */
  totpSecret?: string;
}

/** A new active user of an account, with a password and, if asked, a second factor. */
export async function newUser(
  developerId: number,
  options: { role?: Role; twoFactor?: boolean; label?: string } = {},
): Promise<TestUser> {
  useLocalEnvironment();
  const deps = makeDeps();
  const email = `${options.label ?? options.role ?? 'admin'}-${randomUUID()}@team.example.com`;
  const password = `pass-${randomUUID()}`;
  const added = await addUser(deps, {
    developerId,
    email,
    role: options.role ?? 'admin',
    passwordHash: await hashPassword(password),
    addedBy: 'test',
  });
  if (!added.added) throw new Error(`${email}: ${added.refused}`);
  if (!options.twoFactor) return { user: added.user, email, password };
  const totpSecret = newTotpSecret();
  const sealed = await twoFactorBox().seal(totpSecret);
  await updateStored(teamKeys.user(added.user.user_id), {
    UpdateExpression: 'SET totp_sealed = :sealed',
    ExpressionAttributeValues: { ':sealed': sealed },
  });
  return { user: { ...added.user, totp_sealed: sealed }, email, password, totpSecret };
}

/** The account and mode of a secret API key. */
export async function ownerOfKey(key: string): Promise<{ developerId: number; mode: Mode }> {
  useLocalEnvironment();
  const owner = await findApiKey(makeDeps(), key);
  if (!owner) throw new Error(`no account has the key ${key.slice(0, 12)}…`);
  return owner;
}

/**
 * A one-time link for a user, as `users add`, an invitation or the banner makes one: its URL on the
 * test stack (it replaces the user's earlier links).
 */
export async function linkFor(
  user: Pick<TeamUser, 'user_id' | 'developer_id'>,
  purpose: LinkPurpose = 'set_password',
  lifetimeMs: number = linkLifetimeMs.invitation,
): Promise<string> {
  useLocalEnvironment();
  const token = await makeLink(makeDeps(), stageSessionKeys(), {
    userId: user.user_id,
    developerId: user.developer_id,
    purpose,
    lifetimeMs,
  });
  return accessUrl(apiUrl, token);
}

/** A new invited user (no password yet) of an account: as the Users page's invitation leaves one. */
export async function newInvitedUser(
  developerId: number,
  options: { role?: Role; active?: true } = {},
): Promise<TeamUser> {
  useLocalEnvironment();
  const added = await addUser(makeDeps(), {
    developerId,
    email: `invited-${randomUUID()}@team.example.com`,
    role: options.role ?? 'viewer',
    addedBy: 'test',
    ...(options.active ? { active: true } : {}),
  });
  if (!added.added) throw new Error(added.refused);
  return added.user;
}
