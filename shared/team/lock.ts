/**
 * The per-user lock of dashboard sign-in (docs/design.md#team-sign-in): 10 failed sign-ins in a row
 * for one e-mail address (a wrong password or a wrong second-factor code), from any addresses, lock
 * it for 15 minutes, whatever is sent meanwhile, a right password included. A sign-in that succeeds
 * starts the count again.
 *
 * The count is kept under a keyed hash of the e-mail address (HMAC-SHA256 under the stage's
 * fingerprint secret), whether or not a user has that address: an unknown address locks the same
 * way, so the lock tells nobody which addresses are users'. Each failure is one UpdateItem `ADD`
 * (many Lambdas answer at once), on the condition that the address is not locked; the one that
 * reaches the limit sets the lock's end in the same write. A session is written in a transaction
 * that checks the lock is not in force, so a right password sent while parallel failures lock the
 * user opens nothing.
 */
import { createHmac } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../db/deps.ts';
import type { TransactItem } from '../db/transact.ts';
import { secondsUntil } from '../db/window.ts';
import { teamKeys } from './keys.ts';
import { userFailureLimit, userLockMs } from './limits.ts';
import { normalEmail } from './users.ts';

export { userFailureLimit, userLockMs } from './limits.ts';

/** The keyed hash an e-mail address's failures are counted under. */
export const emailHash = (email: string, key: string): string =>
  createHmac('sha256', key)
    .update(`dashboard-user\u0000${normalEmail(email)}`)
    .digest('hex');

export const lockKey = (hash: string) => teamKeys.lock(hash);

/** While the lock an item (as read, or none) holds is in force: the seconds left, else undefined. */
export function lockedFor(item: Record<string, unknown> | undefined, now: Date): number | undefined {
  const until = Number(item?.locked_until_ms ?? 0);
  return until > now.getTime() ? secondsUntil(until, now) : undefined;
}

const notLocked = (now: Date) => ({
  ConditionExpression: 'attribute_not_exists(locked_until_ms) OR locked_until_ms <= :now',
  ExpressionAttributeValues: { ':now': now.getTime() },
});

/**
 * Counts one failure: undefined while the limit is not reached, or the seconds the address is now
 * locked for (this failure reached the limit, or parallel ones had locked it already).
 */
export async function countUserFailure(deps: Deps, hash: string, now: Date): Promise<number | undefined> {
  const condition = notLocked(now);
  try {
    const counted = await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: lockKey(hash),
        UpdateExpression: 'ADD failures :one SET entity = :entity, updated_at = :at, expires_at = :expires',
        ConditionExpression: condition.ConditionExpression,
        ExpressionAttributeValues: {
          ...condition.ExpressionAttributeValues,
          ':one': 1,
          ':entity': 'user_lock',
          ':at': now.toISOString(),
          // Kept a day after the last failure, then left to the table's TTL.
          ':expires': Math.ceil(now.getTime() / 1000) + 86_400,
        },
        ReturnValues: 'UPDATED_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    if (Number(counted.Attributes?.failures) < userFailureLimit) return undefined;
    const until = now.getTime() + userLockMs;
    // The failure that reached the limit locks; failures counted past it meanwhile change nothing.
    await deps.db
      .send(
        new UpdateCommand({
          TableName: deps.table,
          Key: lockKey(hash),
          UpdateExpression: 'SET locked_until_ms = :until, failures = :zero',
          ConditionExpression: `failures >= :limit AND (${condition.ConditionExpression})`,
          ExpressionAttributeValues: {
            ...condition.ExpressionAttributeValues,
            ':until': until,
            ':zero': 0,
            ':limit': userFailureLimit,
          },
        }),
      )
      .catch((error: unknown) => {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      });
    return secondsUntil(until, now);
  } catch (error) {
    // Locked already (by parallel failures): how long for, from the item as the refusal found it.
    if (error instanceof ConditionalCheckFailedException)
      return secondsUntil(Number(error.Item?.locked_until_ms?.N ?? now.getTime() + userLockMs), now);
    throw error;
  }
}

/**
 * A transaction item for a successful sign-in: it holds only while the address is not locked, and
 * starts its count of failures again.
 */
export function clearFailures(table: string, hash: string, now: Date): TransactItem {
  const condition = notLocked(now);
  return {
    Update: {
      TableName: table,
      Key: lockKey(hash),
      UpdateExpression: 'SET failures = :zero, entity = :entity, updated_at = :at, expires_at = :expires',
      ConditionExpression: condition.ConditionExpression,
      ExpressionAttributeValues: {
        ...condition.ExpressionAttributeValues,
        ':zero': 0,
        ':entity': 'user_lock',
        ':at': now.toISOString(),
        ':expires': Math.ceil(now.getTime() / 1000) + 86_400,
      },
    },
  };
}
