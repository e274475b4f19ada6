/**
 * Plain puts in bulk, for work no request waits on (rebuilding index entries, seeding a benchmark):
 * 25 items per BatchWriteItem, several calls in flight, what DynamoDB leaves unprocessed sent again.
 */
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { eachInLanes } from '../core/lanes.ts';
import type { Deps } from './deps.ts';
import { sendUntilProcessed } from './unprocessed.ts';

/** The items in groups of `size`, read as the groups are taken. */
function* groupsOf<T>(items: Iterable<T>, size: number): Generator<T[]> {
  let group: T[] = [];
  for (const item of items) {
    group.push(item);
    if (group.length === size) {
      yield group;
      group = [];
    }
  }
  if (group.length) yield group;
}

/** Puts every item; answers how many were written. */
export async function putAll(
  deps: Deps,
  items: Iterable<Record<string, unknown>>,
  lanes = 12,
): Promise<number> {
  let written = 0;
  await eachInLanes(groupsOf(items, 25), lanes, async (batch) => {
    await sendUntilProcessed(
      batch.map((Item) => ({ PutRequest: { Item } })),
      async (pending) => {
        const result = await deps.db.send(new BatchWriteCommand({ RequestItems: { [deps.table]: pending } }));
        return (result.UnprocessedItems?.[deps.table] ?? []) as typeof pending;
      },
      'BatchWriteItem left items unprocessed after retries',
    );
    written += batch.length;
  });
  return written;
}
