/**
 * The merchant dashboard's sign-in sessions (docs/design.md#merchant-dashboard). A merchant signs in
 * with one of the account's secret API keys; the session acts in that key's mode. Its token (43
 * random characters, 256 bits) travels only in the HttpOnly cookie: the table keeps an HMAC-SHA256
 * of it under the stage's fingerprint secret, so a copy of the table opens no session, and a token
 * is found by exact key reads, whatever the token, with no comparison that stops early.
 *
 * A session also remembers which key opened it (the key's SHA-256, as the account record keeps it).
 * Every request reads the session and the account record together, in one BatchGetItem: when the
 * account no longer holds that key (it was rotated), the session is over at once. The cookie names
 * the account beside the token so that this second read needs no first.
 */
import { createHmac } from 'node:crypto';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { apiKeyPattern, hashSecret } from '../accounts/credentials.ts';
import { accountKeys } from '../accounts/keys.ts';
import { type Account, apiKeyOwnerOf } from '../accounts/repository.ts';
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
import { failedConditions, named, transactNamed } from '../db/transact.ts';
import { dashboardKeys } from './keys.ts';
import {
  addressHash,
  countFailure,
  retryAfterOf,
  signInWindowOf,
  windowFull,
  windowNotFull,
} from './sign-in-limit.ts';

/** How long a session lasts from sign-in, whatever is done meanwhile. */
export const sessionLifetimeMs = 8 * 3_600_000;
/** A session token's length: 43 characters of [A-Za-z0-9], 256 bits. */
export const sessionTokenLength = 43;
/** The length of a session's CSRF token. */
const csrfLength = 32;

/** One signed-in merchant: whose account, in which mode, until when, opened by which key. */
export interface DashboardSession {
  token_hash: string;
  developer_id: number;
  mode: Mode;
  /** SHA-256 of the API key that opened it: the session ends when the account no longer holds it. */
  key_hash: string;
  /** The token every form of the dashboard posts back; compared in constant time. */
  csrf: string;
  expires_at_ms: number;
  /** DynamoDB TTL, epoch seconds: the item is removed some time after the session ends. */
  expires_at: number;
  created_at: string;
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

/** What the session cookie holds: the account's id and the token, `<id>.<token>`. */
export const cookieValueOf = (developerId: number, token: string) => `${developerId}.${token}`;

/** The account id and token of a cookie value, or undefined when it is not one cobro wrote. */
export function readCookieValue(
  value: string | undefined,
): { developerId: number; token: string } | undefined {
  const match = /^([1-9][0-9]{0,14})\.([A-Za-z0-9]+)$/.exec(value ?? '');
  if (!match || !isToken(match[2] as string, sessionTokenLength)) return undefined;
  return { developerId: Number(match[1]), token: match[2] as string };
}

/** What a sign-in came to: a new session (the cookie's value), or why there is none. */
export type SignInOutcome =
  | { opened: true; cookie: string; session: DashboardSession }
  | { opened: false; refused: 'wrong_key' }
  | { opened: false; refused: 'blocked'; retryAfterSeconds: number };

/**
 * Signs in with a secret API key from a client address (./sign-in-limit.ts): a new session of the
 * key's account in the key's mode; `wrong_key` for a key that is not (or no longer) one of an
 * account's, counted against the address; `blocked` while the address's window holds the limit of
 * failures. One BatchGetItem reads the window's counter and the key's item together.
 */
export async function signIn(
  deps: Deps,
  keys: SessionKeys,
  apiKey: string,
  address: string,
): Promise<SignInOutcome> {
  const now = deps.clock();
  const window = signInWindowOf(addressHash(address, await keys.sign()), now);
  const blocked = (): SignInOutcome => ({
    opened: false,
    refused: 'blocked',
    retryAfterSeconds: retryAfterOf(window, now),
  });
  const wellFormed = apiKeyPattern.test(apiKey);
  const [counter, keyItem] = await getItems(deps, [
    window.key,
    ...(wellFormed ? [accountKeys.apiKey(hashSecret(apiKey))] : []),
  ]);
  // A blocked address is refused before the key's item is looked at: a right key gets the same
  // answer as a wrong one, so guessing on teaches nothing.
  if (windowFull(counter)) return blocked();
  const owner = apiKeyOwnerOf(keyItem);
  if (!owner)
    return (await countFailure(deps, window, now)) ? { opened: false, refused: 'wrong_key' } : blocked();
  const token = randomToken(sessionTokenLength);
  const expiresAtMs = now.getTime() + sessionLifetimeMs;
  const session: DashboardSession = {
    token_hash: sessionTokenHash(token, await keys.sign()),
    developer_id: owner.developerId,
    mode: owner.mode,
    key_hash: hashSecret(apiKey),
    csrf: randomToken(csrfLength),
    expires_at_ms: expiresAtMs,
    expires_at: Math.ceil(expiresAtMs / 1000),
    created_at: now.toISOString(),
  };
  // The session is written only while the window is still below the limit: failures sent in
  // parallel with this sign-in may have filled it since the read above.
  const items = [
    ...named('session', sessionEntity.create(deps.table, session)),
    ...named('window', windowNotFull(deps.table, window)),
  ];
  try {
    await transactNamed(deps, items);
  } catch (error) {
    if (failedConditions(error, items).has('window')) return blocked();
    throw error;
  }
  return { opened: true, cookie: cookieValueOf(owner.developerId, token), session };
}

/** A session in force, with the account it acts for. */
export interface OpenSession {
  session: DashboardSession;
  account: Account;
  scope: Scope;
  /** What the session's mode is connected to (the dashboard says so when it is not a real acquirer). */
  connection: Connection;
}

/**
 * The session a cookie opens, or undefined: no such session, another account's, past its 8 hours,
 * or opened by a key the account no longer holds. One BatchGetItem reads the session (under each
 * value of the secret) and the account together.
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
  // The live connection is read in the same batch (the page says what live mode is connected to).
  const found = await getItems(deps, [
    ...sessionKeys,
    connectionItemKey(presented.developerId, 'live'),
    connectionItemKey(presented.developerId, 'test'),
    accountKeys.account(presented.developerId),
  ]);
  const account = found.at(-1) as Account | undefined;
  const [live, test] = found.slice(-3, -1) as (ConnectionRecord | undefined)[];
  const session = found.slice(0, -3).find((item) => item !== undefined) as DashboardSession | undefined;
  if (!session || !account) return undefined;
  if (session.developer_id !== presented.developerId || account.developer_id !== presented.developerId)
    return undefined;
  if (session.expires_at_ms <= deps.clock().getTime()) return undefined;
  if (account.keys?.[session.mode]?.hash !== session.key_hash) return undefined;
  const connection = connectionOf(session.mode, session.mode === 'live' ? live : test);
  return { session, account, scope: { developerId: session.developer_id, mode: session.mode }, connection };
}

/** Ends the session a cookie names (sign-out), under every value of the secret; nothing when there is none. */
export async function endSession(deps: Deps, keys: SessionKeys, cookie: string | undefined): Promise<void> {
  const presented = readCookieValue(cookie);
  if (!presented) return;
  await Promise.all(
    (await keys.lookup()).map((key) =>
      deps.db.send(
        new DeleteCommand({
          TableName: deps.table,
          Key: dashboardKeys.session(sessionTokenHash(presented.token, key)),
        }),
      ),
    ),
  );
}
