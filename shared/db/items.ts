/**
 * What every repository does with items: drop the table's own attributes to get the record back,
 * read one item strongly consistent, and walk a Query across its pages.
 */
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.ts';
import type { ItemKey } from './keys.ts';

/** The record an item stores: the item without its keys, index keys and entity tag. */
export function recordOf<T>(item: Record<string, unknown>): T {
  const {
    pk: _pk,
    sk: _sk,
    gsi1pk: _a,
    gsi1sk: _b,
    gsi2pk: _c,
    gsi2sk: _d,
    gsi3pk: _f,
    gsi3sk: _g,
    entity: _e,
    ...record
  } = item;
  return record as T;
}

/** One record by key (strongly consistent), or undefined. */
export async function getRecord<T>(deps: Deps, key: ItemKey): Promise<T | undefined> {
  const result = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }),
  );
  return result.Item ? recordOf<T>(result.Item) : undefined;
}

/**
 * Runs a Query page after page, handing each item to `visit` until it answers false or the
 * results end. `limit` (optional) bounds how many items the next page may evaluate.
 */
export async function queryEach(
  deps: Deps,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  visit: (item: Record<string, unknown>) => boolean,
  limit?: () => number,
): Promise<void> {
  let start: Record<string, unknown> | undefined;
  do {
    const result = await deps.db.send(
      new QueryCommand({
        ...input,
        TableName: deps.table,
        ...(limit ? { Limit: limit() } : {}),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of result.Items ?? []) if (!visit(item)) return;
    start = result.LastEvaluatedKey;
  } while (start);
}

/** At most `max` records of a Query, in its order. */
export async function queryRecords<T>(
  deps: Deps,
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  max: number,
): Promise<T[]> {
  const records: T[] = [];
  await queryEach(
    deps,
    input,
    (item) => {
      records.push(recordOf<T>(item));
      return records.length < max;
    },
    () => max - records.length,
  );
  return records;
}
