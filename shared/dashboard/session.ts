/**
 * The merchant dashboard's sign-in sessions (docs/design.md#team-sign-in). A person signs in with
 * their e-mail address and password (then a TOTP code where they enrolled one), or once through a
 * one-time link; the session acts as that user, in test mode until the user switches to live (which
 * needs the second factor). Its token (43 random characters, 256 bits) travels only in the HttpOnly
 * cookie: the table keeps an HMAC-SHA256 of it under the stage's fingerprint secret, so a copy of the
 * table opens no session, and a token is found by exact key reads, with no comparison that stops
 * early.
 *
 * Every request reads the session, its user and its account together, in one BatchGetItem (the
 * cookie names the account and the user beside the token, so no read needs another first). The
 * session is over when its 8 hours are up, at sign-out, when the user is removed, and when the
 * user's password changes (the session keeps the password version it was opened under), except the
 * session the change was made in. Rotating an API key no longer touches sessions.
 */
import { createHmac } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { accountKeys } from '../accounts/keys.ts';
import type { Account } from '../accounts/repository.ts';
import {
  type Connection,
  type ConnectionRecord,
  connectionItemKey,
  connectionOf,
} from '../acquirer/connection.ts';
import type { Mode, Scope } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import { isToken, randomToken } from '../core/ids.ts';
import { type Secret, stageSecret, type TokenKeys, tokenKeys } from '../core/secrets.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getItems } from '../db/get-items.ts';
import { recordOf } from '../db/items.ts';
import { failedConditions, type NamedItem, named, transactNamed } from '../db/transact.ts';
import { teamKeys } from '../team/keys.ts';
import { challengeLifetimeMs } from '../team/limits.ts';
import { clearFailures, countUserFailure, emailHash, lockedFor, lockKey, userLockMs } from '../team/lock.ts';
import { passwordMatches } from '../team/password.ts';
import { totpStep } from '../team/totp.ts';
import type { TwoFactor } from '../team/two-factor.ts';
import { normalEmail, type TeamUser } from '../team/users.ts';
import { dashboardKeys } from './keys.ts';
import {
  addressHash,
  countFailure,
  retryAfterOf,
  type SignInWindow,
  signInWindowOf,
  windowFull,
  windowNotFull,
} from './sign-in-limit.ts';

/** How long a session lasts from sign-in, whatever is done meanwhile. */
export const sessionLifetimeMs = 8 * 3_600_000;
/** A session token's length: 43 characters of [A-Za-z0-9], 256 bits. */
export const sessionTokenLength = 43;
const csrfLength = 32;

/** One signed-in person: which user of which account, in which mode, until when. */
export interface DashboardSession {
  token_hash: string;
  developer_id: number;
  user_id: string;
  /** The user's password version at sign-in: a later password change ends the session. */
  password_version: number;
  mode: Mode;
  /** The token every form of the dashboard posts back; compared in constant time. */
  csrf: string;
  expires_at_ms: number;
  /** DynamoDB TTL, epoch seconds: the item is removed some time after the session ends. */
  expires_at: number;
  created_at: string;
}

/** A sign-in that passed its password and waits for the TOTP code (the code form carries its token). */
interface Challenge {
  token_hash: string;
  user_id: string;
  developer_id: number;
  password_version: number;
  email_hash: string;
  expires_at_ms: number;
  expires_at: number;
}

const sessionEntity = defineEntity<DashboardSession>('dashboard_session', (session) =>
  dashboardKeys.session(session.token_hash),
);

/** The values of the secret session tokens are keyed with: one for new sessions, all a session may be under. */
export type SessionKeys = TokenKeys;

/** The stage's fingerprint secret, as session tokens use it. */
export const stageSessionKeys = (secret: Secret = stageSecret(envNames.fingerprintSecret)): SessionKeys =>
  tokenKeys(secret);

/** The keyed hash a token is stored under; the `dashboard` label keeps it apart from the secret's other uses. */
export function sessionTokenHash(token: string, key: string): string {
  return createHmac('sha256', key).update(`dashboard\u0000${token}`).digest('hex');
}

const challengeHash = (token: string, key: string) =>
  createHmac('sha256', key).update(`dashboard-challenge\u0000${token}`).digest('hex');

/** What the session cookie holds: the account's id, the user's, and the token, `<id>.<user>.<token>`. */
export const cookieValueOf = (developerId: number, userId: string, token: string) =>
  `${developerId}.${userId}.${token}`;

/** The account id, user id and token of a cookie value, or undefined when it is not one cobro wrote. */
export function readCookieValue(
  value: string | undefined,
): { developerId: number; userId: string; token: string } | undefined {
  const match = /^([1-9][0-9]{0,14})\.(usr_[A-Za-z0-9]{24})\.([A-Za-z0-9]+)$/.exec(value ?? '');
  if (!match || !isToken(match[3] as string, sessionTokenLength)) return undefined;
  return { developerId: Number(match[1]), userId: match[2] as string, token: match[3] as string };
}

/** A new session for a user, in test mode: the item to write and the cookie's value. */
async function newSession(keys: SessionKeys, user: TeamUser, version: number, now: Date) {
  const token = randomToken(sessionTokenLength);
  const expiresAtMs = now.getTime() + sessionLifetimeMs;
  const session: DashboardSession = {
    token_hash: sessionTokenHash(token, await keys.sign()),
    developer_id: user.developer_id,
    user_id: user.user_id,
    password_version: version,
    mode: 'test',
    csrf: randomToken(csrfLength),
    expires_at_ms: expiresAtMs,
    expires_at: Math.ceil(expiresAtMs / 1000),
    created_at: now.toISOString(),
  };
  return { session, cookie: cookieValueOf(user.developer_id, user.user_id, token) };
}

/** The condition that a user is still there, active, under the password version the sign-in checked. */
const userStill = (table: string, user: TeamUser, version: number) => ({
  ConditionCheck: {
    TableName: table,
    Key: teamKeys.user(user.user_id),
    ConditionExpression: 'password_version = :version AND #status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':version': version, ':active': 'active' },
  },
});

/** What a sign-in came to: a session (the cookie's value), a code to ask for, or why there is neither. */
export type SignInOutcome =
  | { opened: true; cookie: string; session: DashboardSession; user: TeamUser }
  | { opened: false; refused: 'wrong' }
  | { opened: false; refused: 'blocked' | 'locked'; retryAfterSeconds: number }
  | { opened: false; refused: 'code_needed'; challenge: string }
  | { opened: false; refused: 'expired' };

type Refusal = Exclude<SignInOutcome, { opened: true }>;

/** The address's window and the e-mail's lock, as every sign-in step reads and counts them. */
interface Limits {
  window: SignInWindow;
  lockHash: string;
  now: Date;
}

async function limitsOf(keys: SessionKeys, address: string, email: string, now: Date): Promise<Limits> {
  const key = await keys.sign();
  return { window: signInWindowOf(addressHash(address, key), now), lockHash: emailHash(email, key), now };
}

/** Counts a failure against the address and the e-mail; the refusal to answer. */
async function failed(deps: Deps, limits: Limits): Promise<Refusal> {
  const [counted, locked] = await Promise.all([
    countFailure(deps, limits.window, limits.now),
    countUserFailure(deps, limits.lockHash, limits.now),
  ]);
  if (!counted)
    return { opened: false, refused: 'blocked', retryAfterSeconds: retryAfterOf(limits.window, limits.now) };
  if (locked !== undefined) return { opened: false, refused: 'locked', retryAfterSeconds: locked };
  return { opened: false, refused: 'wrong' };
}

/** Refused before anything is checked: the address blocked, or the e-mail locked. */
function held(
  limits: Limits,
  counter: Record<string, unknown> | undefined,
  lock: Record<string, unknown> | undefined,
): Refusal | undefined {
  if (windowFull(counter))
    return { opened: false, refused: 'blocked', retryAfterSeconds: retryAfterOf(limits.window, limits.now) };
  const locked = lockedFor(lock, limits.now);
  return locked === undefined ? undefined : { opened: false, refused: 'locked', retryAfterSeconds: locked };
}

/**
 * Writes a new session in one transaction with what must still hold: the user unchanged, the
 * address not blocked and the e-mail not locked by failures sent in parallel (its count starts
 * again), plus `more` (the challenge used up, the TOTP step taken).
 */
async function openNew<N extends string>(
  deps: Deps,
  keys: SessionKeys,
  user: TeamUser,
  version: number,
  limits: Limits,
  more: NamedItem<N>[] = [],
  userCheck: NamedItem<'user'>[] = named('user', userStill(deps.table, user, version)),
): Promise<SignInOutcome> {
  const { session, cookie } = await newSession(keys, user, version, limits.now);
  const items: NamedItem<N | 'session' | 'window' | 'lock' | 'user'>[] = [
    ...named('session', sessionEntity.create(deps.table, session)),
    ...named('window', windowNotFull(deps.table, limits.window)),
    ...named('lock', clearFailures(deps.table, limits.lockHash, limits.now)),
    ...userCheck,
    ...more,
  ];
  try {
    await transactNamed(deps, items);
  } catch (error) {
    const failedNames = failedConditions(error, items);
    if (failedNames.has('window'))
      return {
        opened: false,
        refused: 'blocked',
        retryAfterSeconds: retryAfterOf(limits.window, limits.now),
      };
    if (failedNames.has('lock'))
      return { opened: false, refused: 'locked', retryAfterSeconds: Math.ceil(userLockMs / 1000) };
    if (failedNames.size > 0) return { opened: false, refused: 'wrong' };
    throw error;
  }
  return { opened: true, cookie, session, user };
}

/**
 * Signs in with an e-mail address and a password from a client address. A wrong pair (no such
 * user, a wrong password, an invited user who set none yet) is `wrong`, counted against the
 * client's address (./sign-in-limit.ts) and the e-mail (shared/team/lock.ts); past either limit,
 * `blocked` or `locked` whatever is sent. A right pair opens a session, or, for a user with a second
 * factor, answers the challenge the code form carries. Reads: one BatchGetItem (the address's
 * counter, the e-mail's claim and lock), then the user.
 */
export async function signIn(
  deps: Deps,
  keys: SessionKeys,
  input: { email: string; password: string; address: string },
): Promise<SignInOutcome> {
  const now = deps.clock();
  const email = normalEmail(input.email);
  const limits = await limitsOf(keys, input.address, email, now);
  const wellFormed = email.length > 0 && email.length <= 254 && email.includes('@');
  const [counter, lock, claim] = await getItems(deps, [
    limits.window.key,
    lockKey(limits.lockHash),
    ...(wellFormed ? [teamKeys.email(email)] : []),
  ]);
  // Refused before the password is looked at: a right one gets the same answer as a wrong one.
  const refused = held(limits, counter, lock);
  if (refused) return refused;
  const user = claim ? (await getItems(deps, [teamKeys.user(String(claim.user_id))]))[0] : undefined;
  const found = user ? recordOf<TeamUser>(user) : undefined;
  // Checked (against a decoy without a user) in the same time whether or not the e-mail is a user's.
  const matches = await passwordMatches(
    input.password,
    found?.status === 'active' ? found.password_hash : undefined,
  );
  if (!found || !matches) return failed(deps, limits);
  return openOrAskCode(deps, keys, found, found.password_version, limits);
}

/**
 * The step after a user proved who they are (a password, a one-time link): the session, or, for a
 * user with a second factor, the challenge the code form carries (a link never skips the code).
 */
async function openOrAskCode(
  deps: Deps,
  keys: SessionKeys,
  user: TeamUser,
  version: number,
  limits: Limits,
): Promise<SignInOutcome> {
  if (!user.totp_sealed) return openNew(deps, keys, user, version, limits);
  const token = randomToken(sessionTokenLength);
  const expiresAtMs = limits.now.getTime() + challengeLifetimeMs;
  const challenge: Challenge = {
    token_hash: challengeHash(token, await keys.sign()),
    user_id: user.user_id,
    developer_id: user.developer_id,
    password_version: version,
    email_hash: limits.lockHash,
    expires_at_ms: expiresAtMs,
    expires_at: Math.ceil(expiresAtMs / 1000),
  };
  await transactNamed(
    deps,
    named('challenge', {
      Put: {
        TableName: deps.table,
        Item: { ...teamKeys.challenge(challenge.token_hash), entity: 'user_challenge', ...challenge },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
  );
  return { opened: false, refused: 'code_needed', challenge: token };
}

/**
 * The second step: the TOTP code for a challenge. A wrong code is counted as a failed sign-in (the
 * address and the e-mail); the right one opens the session in one transaction that uses the
 * challenge up and records the code's step as the user's last, on the condition that it is later
 * than the last one taken (a code works once). An unknown or expired challenge is `expired`.
 */
export async function signInWithCode(
  deps: Deps,
  keys: SessionKeys & { twoFactor: TwoFactor },
  input: { challenge: string; code: string; address: string },
): Promise<SignInOutcome> {
  const now = deps.clock();
  if (!isToken(input.challenge, sessionTokenLength)) return { opened: false, refused: 'expired' };
  const hashes = (await keys.lookup()).map((key) => challengeHash(input.challenge, key));
  const found = (
    await getItems(
      deps,
      hashes.map((hash) => teamKeys.challenge(hash)),
    )
  ).find((item) => item);
  const challenge = found ? recordOf<Challenge>(found) : undefined;
  if (!challenge || challenge.expires_at_ms <= now.getTime()) return { opened: false, refused: 'expired' };
  const key = await keys.sign();
  const limits: Limits = {
    window: signInWindowOf(addressHash(input.address, key), now),
    lockHash: challenge.email_hash,
    now,
  };
  const [counter, lock, userItem] = await getItems(deps, [
    limits.window.key,
    lockKey(limits.lockHash),
    teamKeys.user(challenge.user_id),
  ]);
  const refused = held(limits, counter, lock);
  if (refused) return refused;
  const user = userItem ? recordOf<TeamUser>(userItem) : undefined;
  if (!user?.totp_sealed || user.password_version !== challenge.password_version)
    return { opened: false, refused: 'expired' };
  const step = totpStep(await keys.twoFactor.open(user.totp_sealed), input.code, now);
  if (step === undefined || step <= (user.totp_last_step ?? -1)) return failed(deps, limits);
  // One write to the user both checks it is unchanged and takes the code's step.
  return openNew(
    deps,
    keys,
    user,
    challenge.password_version,
    limits,
    named('challenge', {
      Delete: {
        TableName: deps.table,
        Key: teamKeys.challenge(challenge.token_hash),
        ConditionExpression: 'attribute_exists(pk)',
      },
    }),
    named('user', {
      Update: {
        TableName: deps.table,
        Key: teamKeys.user(user.user_id),
        UpdateExpression: 'SET totp_last_step = :step',
        ConditionExpression:
          'password_version = :version AND #status = :active AND (attribute_not_exists(totp_last_step) OR totp_last_step < :step)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':step': step,
          ':version': challenge.password_version,
          ':active': 'active',
        },
      },
    }),
  );
}

/**
 * Whether a sign-in from `address` as `email` would be refused before anything is checked (the
 * address blocked, the e-mail locked): a one-time link is not used up for a sign-in that cannot
 * happen. One BatchGetItem.
 */
export async function signInHeld(
  deps: Deps,
  keys: SessionKeys,
  email: string,
  address: string,
): Promise<Exclude<SignInOutcome, { opened: true }> | undefined> {
  const limits = await limitsOf(keys, address, email, deps.clock());
  const [counter, lock] = await getItems(deps, [limits.window.key, lockKey(limits.lockHash)]);
  return held(limits, counter, lock);
}

/**
 * A sign-in by a one-time link (the link already used up): no password asked; the address's limit
 * and the e-mail's lock still apply, and a user with a second factor is asked for the code.
 */
export async function signInByLink(
  deps: Deps,
  keys: SessionKeys,
  user: TeamUser,
  address: string,
): Promise<SignInOutcome> {
  const limits = await limitsOf(keys, address, user.email, deps.clock());
  return openOrAskCode(deps, keys, user, user.password_version, limits);
}

/** A session in force, with its user and the account it acts for. */
export interface OpenSession {
  session: DashboardSession;
  user: TeamUser;
  account: Account;
  scope: Scope;
  /** What the session's mode is connected to (the dashboard says so when it is not a real acquirer). */
  connection: Connection;
}

/**
 * The session a cookie opens, or undefined: no such session, another account's or user's, past its
 * 8 hours, its user removed or not active, or its password changed since. One BatchGetItem reads
 * the session (under each value of the secret), the user, the account and its connections. A live
 * session whose user no longer has a second factor acts in test mode.
 */
export async function openSession(
  deps: Deps,
  keys: SessionKeys,
  cookie: string | undefined,
): Promise<OpenSession | undefined> {
  const presented = readCookieValue(cookie);
  if (!presented) return undefined;
  const sessionKeys = (await keys.lookup()).map((key) =>
    dashboardKeys.session(sessionTokenHash(presented.token, key)),
  );
  const found = await getItems(deps, [
    ...sessionKeys,
    teamKeys.user(presented.userId),
    connectionItemKey(presented.developerId, 'live'),
    connectionItemKey(presented.developerId, 'test'),
    accountKeys.account(presented.developerId),
  ]);
  const [userItem, live, test, accountItem] = found.slice(-4);
  const sessionItem = found.slice(0, -4).find((item) => item !== undefined);
  if (!sessionItem || !userItem || !accountItem) return undefined;
  const session = recordOf<DashboardSession>(sessionItem);
  const user = recordOf<TeamUser>(userItem);
  const account = accountItem as unknown as Account;
  if (session.developer_id !== presented.developerId || account.developer_id !== presented.developerId)
    return undefined;
  if (session.user_id !== user.user_id || user.developer_id !== presented.developerId) return undefined;
  if (user.status !== 'active' || user.password_version !== session.password_version) return undefined;
  if (session.expires_at_ms <= deps.clock().getTime()) return undefined;
  const mode: Mode = session.mode === 'live' && user.totp_sealed ? 'live' : 'test';
  const connection = connectionOf(mode, (mode === 'live' ? live : test) as ConnectionRecord | undefined);
  return {
    session: { ...session, mode },
    user,
    account,
    scope: { developerId: session.developer_id, mode },
    connection,
  };
}

/** The keys a cookie's session may be stored under. */
async function sessionKeysOf(keys: SessionKeys, cookie: string | undefined) {
  const presented = readCookieValue(cookie);
  if (!presented) return [];
  return (await keys.lookup()).map((key) => dashboardKeys.session(sessionTokenHash(presented.token, key)));
}

/** Ends the session a cookie names (sign-out), under every value of the secret; nothing when there is none. */
export async function endSession(deps: Deps, keys: SessionKeys, cookie: string | undefined): Promise<void> {
  await Promise.all(
    (await sessionKeysOf(keys, cookie)).map((Key) =>
      deps.db.send(new DeleteCommand({ TableName: deps.table, Key })),
    ),
  );
}

/**
 * Changes what a session in force holds: its mode (the live switch), or the password version it
 * keeps (the session a password change was made in goes on; every other one ends).
 */
export async function updateSession(
  deps: Deps,
  session: DashboardSession,
  change: { mode: Mode } | { password_version: number },
): Promise<void> {
  const [name, value] = Object.entries(change)[0] as [string, unknown];
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: dashboardKeys.session(session.token_hash),
      UpdateExpression: 'SET #field = :value',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#field': name },
      ExpressionAttributeValues: { ':value': value },
    }),
  );
}
