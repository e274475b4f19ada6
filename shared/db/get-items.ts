/** Several items by key in one BatchGetItem call, answered in the order asked. */
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.ts';
import type { ItemKey } from './keys.ts';
import { sendUntilProcessed } from './unprocessed.ts';

const sameKey = (a: ItemKey, b: Record<string, unknown>) => a.pk === b.pk && a.sk === b.sk;

/** Items for `wanted` (strongly consistent), undefined where none exists. At most 100 keys. */
export async function getItems(
  deps: Deps,
  wanted: ItemKey[],
): Promise<(Record<string, unknown> | undefined)[]> {
  const found: Record<string, unknown>[] = [];
  await sendUntilProcessed(
    wanted.map(({ pk, sk }) => ({ pk, sk })),
    async (pending) => {
      const result = await deps.db.send(
        new BatchGetCommand({ RequestItems: { [deps.table]: { Keys: pending, ConsistentRead: true } } }),
      );
      found.push(...(result.Responses?.[deps.table] ?? []));
      return (result.UnprocessedKeys?.[deps.table]?.Keys ?? []) as ItemKey[];
    },
    'BatchGetItem left keys unprocessed after retries',
  );
  return wanted.map((key) => found.find((item) => sameKey(key, item)));
}
