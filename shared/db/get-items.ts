/** Several items by key in one BatchGetItem call, answered in the order asked. */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.ts';
import type { ItemKey } from './keys.ts';

const sameKey = (a: ItemKey, b: Record<string, unknown>) => a.pk === b.pk && a.sk === b.sk;

/** Items for `wanted` (strongly consistent), undefined where none exists. At most 100 keys. */
export async function getItems(
  deps: Deps,
  wanted: ItemKey[],
): Promise<(Record<string, unknown> | undefined)[]> {
  const found: Record<string, unknown>[] = [];
  let pending: ItemKey[] = wanted.map(({ pk, sk }) => ({ pk, sk }));
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
    const result = await deps.db.send(
      new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: pending, ConsistentRead: true } } }),
    );
    found.push(...(result.Responses?.[deps.table] ?? []));
    // DynamoDB may leave keys unprocessed under load; they are asked for again.
    pending = (result.UnprocessedKeys?.[deps.table]?.Keys ?? []) as ItemKey[];
    if (attempt > 8 && pending.length) throw new Error('BatchGetItem left keys unprocessed after retries');
  }
  return wanted.map((key) => found.find((item) => sameKey(key, item)));
}
