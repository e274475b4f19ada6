/**
 * Rebuilds derived index data from the stored records (`cobro reindex`, `cobro search reindex`):
 * for records written before an index existed, or an index damaged by hand. Operator work, so it
 * Scans (only for the entity tags it is given); no request path calls it. Every write it makes is
 * idempotent, so running it twice is harmless.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { eachInLanes } from '../core/lanes.ts';
import { putAll } from './batch.ts';
import type { Deps } from './deps.ts';

/** What one stored item needs written for its indexes. */
export interface IndexRepair {
  /** Index entries that are items of their own (search entries), put as they are. */
  puts?: Record<string, unknown>[];
  /**
   * Index keys the item itself carries (gsi attributes), set on it as long as it still exists and
   * `basis` (the attributes the keys were made from, with the values read) still holds: a record
   * changed meanwhile was written with its keys already.
   */
  keys?: { set: Record<string, string>; basis: Record<string, unknown> };
}

/** The repair of one stored item of a given entity tag. */
export type Reindexer = (item: Record<string, unknown>) => IndexRepair;

/** How many key updates run at once. */
const updateLanes = 8;

/** Sets index keys on one stored item; false when its condition no longer holds (changed or gone). */
async function setKeys(
  deps: Deps,
  item: Record<string, unknown>,
  keys: NonNullable<IndexRepair['keys']>,
): Promise<boolean> {
  const set = Object.entries(keys.set);
  const basis = Object.entries(keys.basis);
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: { pk: item.pk, sk: item.sk },
        UpdateExpression: `SET ${set.map((_, i) => `#s${i} = :s${i}`).join(', ')}`,
        ConditionExpression: ['attribute_exists(pk)', ...basis.map((_, i) => `#b${i} = :b${i}`)].join(
          ' AND ',
        ),
        ExpressionAttributeNames: Object.fromEntries([
          ...set.map(([name], i) => [`#s${i}`, name]),
          ...basis.map(([name], i) => [`#b${i}`, name]),
        ]),
        ExpressionAttributeValues: Object.fromEntries([
          ...set.map(([, value], i) => [`:s${i}`, value]),
          ...basis.map(([, value], i) => [`:b${i}`, value]),
        ]),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Repairs the indexes of every stored item whose tag `byTag` names; answers how many items of each
 * tag it saw, how many entries it put and how many items it gave keys.
 */
export async function reindex(
  deps: Deps,
  byTag: Record<string, Reindexer>,
): Promise<{ records: Record<string, number>; entries: number; keyed: number }> {
  const tags = Object.keys(byTag);
  const records: Record<string, number> = Object.fromEntries(tags.map((tag) => [tag, 0]));
  let entries = 0;
  let keyed = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(
      new ScanCommand({
        TableName: deps.table,
        FilterExpression: `entity IN (${tags.map((_, i) => `:t${i}`).join(', ')})`,
        ExpressionAttributeValues: Object.fromEntries(tags.map((tag, i) => [`:t${i}`, tag])),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    const puts: Record<string, unknown>[] = [];
    const updates: [Record<string, unknown>, NonNullable<IndexRepair['keys']>][] = [];
    for (const item of page.Items ?? []) {
      const tag = String(item.entity);
      const reindexer = byTag[tag];
      if (!reindexer) continue;
      records[tag] = (records[tag] ?? 0) + 1;
      const repair = reindexer(item);
      puts.push(...(repair.puts ?? []));
      // An item that already carries exactly these keys needs no write.
      if (repair.keys && Object.entries(repair.keys.set).some(([name, value]) => item[name] !== value))
        updates.push([item, repair.keys]);
    }
    entries += await putAll(deps, puts);
    await eachInLanes(updates, updateLanes, async ([item, keys]) => {
      if (await setKeys(deps, item, keys)) keyed += 1;
    });
    start = page.LastEvaluatedKey;
  } while (start);
  return { records, entries, keyed };
}
