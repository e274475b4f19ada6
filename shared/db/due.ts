/**
 * The due indexes (subscription billing, recurring payment links): one item per record with work
 * ahead, in `dueShards` partitions, sorted by due time (`<ISO time>#<id>`), so a run reads what is
 * due by Query, never by Scan.
 */
import type { Deps } from './deps.ts';
import { queryEach } from './items.ts';
import { dueShards } from './keys.ts';

/** The entries due at `now` (at most `limit` per shard), oldest first within a shard. */
export async function dueEntries<T>(
  deps: Deps,
  partitionOf: (shard: number) => string,
  now: Date,
  limit: number,
): Promise<T[]> {
  const found = await Promise.all(
    Array.from({ length: dueShards }, async (_, shard) => {
      const entries: T[] = [];
      await queryEach(
        deps,
        {
          // `~` sorts after `#<id>`: an entry due at exactly `now` is due (D14).
          KeyConditionExpression: 'pk = :pk AND sk <= :until',
          ExpressionAttributeValues: { ':pk': partitionOf(shard), ':until': `${now.toISOString()}~` },
        },
        (item) => {
          entries.push(item as T);
          return entries.length < limit;
        },
        () => limit - entries.length,
      );
      return entries;
    }),
  );
  return found.flat();
}

/** Visits every item, at most `lanes` at a time. */
export async function inLanes<T>(items: readonly T[], lanes: number, visit: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < items.length) await visit(items[next++] as T);
    }),
  );
}
