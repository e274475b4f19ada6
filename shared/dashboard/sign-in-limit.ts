/**
 * Failed dashboard sign-ins, counted per client address in fixed windows of the clock
 * (docs/design.md#merchant-dashboard). Past the limit, every sign-in from that address is refused
 * (429) until the window ends, a right key included: the answer no longer depends on the key, so
 * more guesses tell an attacker nothing, and guessing is as slow as the limit whatever is sent.
 *
 * - The address is the one API Gateway saw the connection come from (the event's
 *   `requestContext.identity.sourceIp`), never a request header such as X-Forwarded-For, which the
 *   caller writes. An IPv6 client counts by its /64 prefix, the block one subscriber usually holds,
 *   so rotating addresses inside it earns no fresh guesses.
 * - The table keeps a keyed hash of the address (HMAC-SHA256 under the stage's fingerprint secret),
 *   never the address: an address is personal data. When that secret is replaced, counts start
 *   again (at most one more window of guesses, once).
 * - One item per address and window (the window's start is in its key): a failure is one UpdateItem
 *   `ADD`, which creates the item or adds to it atomically, on the condition that the window is not
 *   already full; many Lambdas answer at once, so the count is never kept in memory. The item
 *   carries the table's TTL attribute and goes some time after its window ends.
 * - The window's counter is read in the same BatchGetItem as the key's item, so a sign-in costs no
 *   round trip more than before, and a failure one (its UpdateItem).
 */
import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../db/deps.ts';
import type { ItemKey } from '../db/keys.ts';
import type { TransactItem } from '../db/transact.ts';
import { secondsUntil } from '../db/window.ts';
import { dashboardKeys } from './keys.ts';

/**
 * At most 10 failed sign-ins per address per 15 minutes. A merchant mistyping a key, or a few
 * colleagues behind one office address, stay far below it; a guesser gets at most 960 tries a day
 * per address (20 in a row across the edge of two windows), against keys of 190 random bits. A
 * window of the clock (not one starting at the first failure) lets one UpdateItem count a failure.
 */
export const signInFailureLimit = 10;
export const signInWindowMs = 15 * 60_000;

const entity = 'dashboard_sign_in_failures';

/** One address's counter in the window `now` falls in. */
export interface SignInWindow {
  key: ItemKey;
  startMs: number;
  endMs: number;
}

/**
 * What is counted for an address: an IPv4 address as it is (also when written as IPv4-mapped IPv6),
 * an IPv6 address by its /64 prefix. Anything else (no address) counts as itself.
 */
export function countedAddress(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  // An IPv4 tail (::a.b.c.d) is two groups of 16 bits.
  const hex = address
    .toLowerCase()
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_, a, b, c, d) =>
      [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)].map((n) => n.toString(16)).join(':'),
    );
  const [head = '', tail] = hex.split('::');
  const front = head ? head.split(':') : [];
  const back = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill('0'), ...back];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** The keyed hash an address is counted under; the label keeps it apart from the secret's other uses. */
export function addressHash(address: string, key: string): string {
  return createHmac('sha256', key)
    .update(`dashboard-sign-in\u0000${countedAddress(address)}`)
    .digest('hex');
}

/** The counter of the address hashed as `hash` in the window of the clock `now` falls in. */
export function signInWindowOf(hash: string, now: Date): SignInWindow {
  const startMs = Math.floor(now.getTime() / signInWindowMs) * signInWindowMs;
  return { key: dashboardKeys.signInFailures(hash, startMs), startMs, endMs: startMs + signInWindowMs };
}

/** Whether a counter's item (as read, or none) already holds the limit. */
export const windowFull = (item: Record<string, unknown> | undefined): boolean =>
  Number(item?.failures ?? 0) >= signInFailureLimit;

/** What `Retry-After` says while the window is full: the seconds to its end (at least 1). */
export const retryAfterOf = (window: SignInWindow, now: Date): number => secondsUntil(window.endMs, now);

const underLimit = {
  ConditionExpression: 'attribute_not_exists(failures) OR failures < :limit',
  ExpressionAttributeValues: { ':limit': signInFailureLimit },
} as const;

/**
 * Counts one failed sign-in in its window: true, or false when the window already held the limit
 * (other sign-ins from the address filled it meanwhile), when nothing is counted and the sign-in
 * must be refused as blocked.
 */
export async function countFailure(deps: Deps, window: SignInWindow, now: Date): Promise<boolean> {
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: window.key,
        UpdateExpression:
          'ADD failures :one SET entity = :entity, window_end_ms = :end, expires_at = :expires, updated_at = :now',
        ConditionExpression: underLimit.ConditionExpression,
        ExpressionAttributeValues: {
          ...underLimit.ExpressionAttributeValues,
          ':one': 1,
          ':entity': entity,
          ':end': window.endMs,
          ':expires': Math.ceil(window.endMs / 1000),
          ':now': now.toISOString(),
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * A transaction item that holds only while the window is below the limit: written with a new
 * session, so a right key sent while parallel failures fill the window opens nothing either.
 */
export const windowNotFull = (table: string, window: SignInWindow): TransactItem => ({
  ConditionCheck: { TableName: table, Key: window.key, ...underLimit },
});
