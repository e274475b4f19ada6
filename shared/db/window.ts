/**
 * Window counters in the table: how many times something was done in a window of time (an hour,
 * say) that starts at its first use, with a limit. Many Lambdas serve one account at once, so the
 * count lives in one item per thing counted and moves only by conditional writes: never in memory.
 * The item expires (TTL) once its window has ended.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Deps } from './deps.ts';
import type { ItemKey } from './keys.ts';
import { lostRace, retryOptimistic } from './optimistic.ts';

export interface WindowCounter {
  key: ItemKey;
  /** The `entity` of its item. */
  entity: string;
  /** Whose count it is (`developer_id`, `mode` …), stored on the item. */
  owner: Record<string, unknown>;
  limit: number;
  windowMs: number;
}

/** Counted in the window ending at `windowEndMs`, or refused until it ends (`retryAfterSeconds`, at least 1). */
export type Taken = { taken: true; windowEndMs: number } | { taken: false; retryAfterSeconds: number };

/** Whole seconds from `now` until `endMs` (at least 1): what `Retry-After` says. */
export const secondsUntil = (endMs: number, now: Date): number =>
  Math.max(1, Math.ceil((endMs - now.getTime()) / 1000));

/**
 * Counts one use in the counter's current window, unless it already holds `limit`. A counter with
 * no window, or whose window has ended, starts a new one at `now` holding this use.
 */
export function takeFromWindow(deps: Deps, counter: WindowCounter, now: Date): Promise<Taken> {
  const at = now.getTime();
  return retryOptimistic(async () => {
    try {
      const updated = await deps.db.send(
        new UpdateCommand({
          TableName: deps.table,
          Key: counter.key,
          UpdateExpression: 'SET #count = #count + :one, updated_at = :now',
          ConditionExpression: 'window_end_ms > :at AND #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':now': now.toISOString(),
            ':at': at,
            ':limit': counter.limit,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { taken: true, windowEndMs: Number(updated.Attributes?.window_end_ms) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const old = error.Item ? unmarshall(error.Item) : undefined;
      const end = Number(old?.window_end_ms);
      if (old && end > at) {
        // Another Lambda's clock may run a little ahead of this one's: never more than a window.
        const retryAfterSeconds = Math.min(secondsUntil(end, now), Math.ceil(counter.windowMs / 1000));
        return { taken: false, retryAfterSeconds };
      }
    }
    // No window yet, or it has ended: start one holding this use, unless another request just did.
    const end = at + counter.windowMs;
    try {
      await deps.db.send(
        new PutCommand({
          TableName: deps.table,
          Item: {
            ...counter.key,
            entity: counter.entity,
            ...counter.owner,
            count: 1,
            window_end_ms: end,
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
            expires_at: Math.ceil(end / 1000),
          },
          ConditionExpression: 'attribute_not_exists(pk) OR window_end_ms <= :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      );
      return { taken: true, windowEndMs: end };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return lostRace; // count in its window
      throw error;
    }
  });
}

/**
 * Gives back a use `takeFromWindow` counted (what it was for did not happen), if its window is still
 * the one it was counted in.
 */
export async function giveBackToWindow(deps: Deps, key: ItemKey, windowEndMs: number): Promise<void> {
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: key,
        UpdateExpression: 'SET #count = #count - :one',
        ConditionExpression: 'window_end_ms = :end AND #count > :zero',
        ExpressionAttributeNames: { '#count': 'count' },
        ExpressionAttributeValues: { ':one': 1, ':end': windowEndMs, ':zero': 0 },
      }),
    );
  } catch (error) {
    // A new window has begun meanwhile: the use was never counted in it.
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}
