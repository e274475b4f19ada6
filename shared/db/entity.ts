/**
 * A stored record described once, as data: its entity tag and the keys its item carries (the
 * table key and any index keys). Repositories build items, new-item writes and reads from it.
 */
import type { Deps } from './deps.ts';
import { getRecord } from './items.ts';
import type { CustomerListKey, ItemKey, ListKey, SecondListKey } from './keys.ts';

export interface Entity<R> {
  /** The `entity` attribute of its items. */
  readonly tag: string;
  /** The item a record is stored as: its keys, its tag, its fields. */
  item(record: R): Record<string, unknown>;
  /** A transaction item storing a new record; it fails if an item with its key exists. */
  create(
    table: string,
    record: R,
  ): { Put: { TableName: string; Item: Record<string, unknown>; ConditionExpression: string } };
  /** The record stored under `key`, strongly consistent, or undefined. */
  get(deps: Deps, key: ItemKey): Promise<R | undefined>;
}

export function defineEntity<R extends object>(
  tag: string,
  keysOf: (record: R) => ItemKey & Partial<ListKey> & Partial<SecondListKey> & Partial<CustomerListKey>,
): Entity<R> {
  const item = (record: R) => ({ ...keysOf(record), entity: tag, ...record });
  return {
    tag,
    item,
    create: (table, record) => ({
      Put: { TableName: table, Item: item(record), ConditionExpression: 'attribute_not_exists(pk)' },
    }),
    get: (deps, key) => getRecord<R>(deps, key),
  };
}
