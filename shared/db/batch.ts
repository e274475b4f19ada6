/**
 * Plain puts in bulk, for work no request waits on (rebuilding index entries, seeding a benchmark):
 * 25 items per BatchWriteItem, several calls in flight, what DynamoDB leaves unprocessed sent again.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.ts';

/** Puts every item; answers how many were written. */
export async function putAll(
  deps: Deps,
  items: Iterable<Record<string, unknown>>,
  lanes = 12,
): Promise<number> {
  const iterator = items[Symbol.iterator]();
  let written = 0;
  const lane = async () => {
    for (;;) {
      const batch: Record<string, unknown>[] = [];
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        batch.push(next.value);
        if (batch.length === 25) break;
      }
      if (batch.length === 0) return;
      let pending = batch.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length; attempt++) {
        if (attempt > 0)
          await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
        const result = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: pending } }));
        pending = (result.UnprocessedItems?.[deps.table] ?? []) as typeof pending;
      }
      written += batch.length;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return written;
}
