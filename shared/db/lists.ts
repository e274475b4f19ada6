/**
 * The list shape plans, customers and products share: records in gsi1 under one partition per
 * account and mode, newest first, and a count item kept in the transactions that add and remove
 * records, sorting after them (`~` > `#`) so one backwards Query reads the count and page 1.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../core/account.ts';
import { assertPageExists, type PageRequest } from '../core/pagination.ts';
import type { Deps } from './deps.ts';
import { getItems } from './get-items.ts';
import { queryEach, recordOf } from './items.ts';
import type { ItemKey, ListKey } from './keys.ts';
import type { TransactItem } from './transact.ts';

/** Where a kind of record is listed and counted. */
export interface CountedList {
  /** The count item's keys (its gsi1 keys sort after every record). */
  count: ItemKey & ListKey;
  /** The count item's entity tag and the attribute holding the count. */
  countEntity: string;
  countAttribute: string;
  /** gsi1 sort-key prefixes: with the count item, and records alone. */
  prefix: { withCount: string; recordsOnly: string };
}

/**
 * The list of one kind of record: its count item's keys, `<name>_count` as the count's tag and
 * attribute, and `tag` (`PLAN`) as the gsi1 sort-key prefix (records sort as `PLAN#…`).
 */
export const countedList = (count: ItemKey & ListKey, name: string, tag: string): CountedList => ({
  count,
  countEntity: `${name}_count`,
  countAttribute: `${name}_count`,
  prefix: { withCount: tag, recordsOnly: `${tag}#` },
});

/** Adds `by` to the list's count, as one item of a transaction. */
export function countUpdate(
  deps: Deps,
  list: CountedList,
  scope: Scope,
  by: number,
  now: string,
): TransactItem {
  const { pk, sk, gsi1pk, gsi1sk } = list.count;
  return {
    Update: {
      TableName: deps.table,
      Key: { pk, sk },
      UpdateExpression:
        'ADD #count :by SET gsi1pk = :gpk, gsi1sk = :gsk, entity = :entity, developer_id = :dev, #mode = :mode, updated_at = :now, created_at = if_not_exists(created_at, :now)',
      ExpressionAttributeNames: { '#mode': 'mode', '#count': list.countAttribute },
      ExpressionAttributeValues: {
        ':by': by,
        ':gpk': gsi1pk,
        ':gsk': gsi1sk,
        ':entity': list.countEntity,
        ':dev': scope.developerId,
        ':mode': scope.mode,
        ':now': now,
      },
    },
  };
}

/** Page `page` of the list and its count: page 1 in one Query, a deeper page reads past the earlier ones. */
export async function countedPage<T>(
  deps: Deps,
  list: CountedList,
  page: PageRequest,
): Promise<{ count: number; records: T[] }> {
  const offset = (page.page - 1) * page.pageSize;
  let count: number | undefined;
  let seen = 0;
  const records: T[] = [];
  await queryEach(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': list.count.gsi1pk, ':prefix': list.prefix.withCount },
      ScanIndexForward: false,
    },
    (item) => {
      if (item.entity === list.countEntity) {
        count = Number(item[list.countAttribute] ?? 0);
        assertPageExists(count, page); // before reading anything past the first call
        return true;
      }
      count ??= 0;
      if (seen >= offset) records.push(recordOf<T>(item));
      seen += 1;
      return records.length < page.pageSize;
    },
    // The first call reads the count and page 1; later ones only what the asked page still needs.
    () => (count === undefined ? page.pageSize + 1 : offset + page.pageSize - seen),
  );
  count ??= 0;
  assertPageExists(count, page);
  return { count, records };
}

/** Every record of the list that passes a DynamoDB filter, newest first, handed to `visit`. */
export async function filteredRecords<T>(
  deps: Deps,
  list: CountedList,
  filter: AttributeFilter,
  visit: (record: T) => void,
): Promise<void> {
  const expression = filterExpression(filter);
  await queryEach(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ...expression,
      ExpressionAttributeValues: {
        ':pk': list.count.gsi1pk,
        ':prefix': list.prefix.recordsOnly,
        ...expression.ExpressionAttributeValues,
      },
      ScanIndexForward: false,
    },
    (item) => {
      visit(recordOf<T>(item));
      return true;
    },
  );
}

/** Filter clauses: an attribute compared with a value; undefined values are left out. */
export type AttributeFilter = readonly (readonly ['=' | '>=' | '<=', string, unknown])[];

/** A FilterExpression (clauses joined with AND) with its names and values; empty without clauses. */
export function filterExpression(
  filter: AttributeFilter,
): Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const clauses = filter.filter(([, , value]) => value !== undefined);
  if (clauses.length === 0) return {};
  return {
    FilterExpression: clauses.map(([op, attribute], i) => `#${attribute} ${op} :f${i}`).join(' AND '),
    ExpressionAttributeNames: Object.fromEntries(
      clauses.map(([, attribute]) => [`#${attribute}`, attribute]),
    ),
    ExpressionAttributeValues: Object.fromEntries(clauses.map(([, , value], i) => [`:f${i}`, value])),
  };
}

/** Counts matches handed to `visit` and keeps the records of the page asked for. */
export function pageOfMatches<T>(page: PageRequest) {
  const offset = (page.page - 1) * page.pageSize;
  const result = { count: 0, records: [] as T[] };
  return {
    result,
    visit(record: T) {
      if (result.count >= offset && result.records.length < page.pageSize) result.records.push(record);
      result.count += 1;
    },
  };
}

/** Records by key, 100 per BatchGetItem, in the order given; keys with no item are left out. */
export async function recordsByKeys<T>(deps: Deps, wanted: ItemKey[]): Promise<T[]> {
  const found: T[] = [];
  for (let start = 0; start < wanted.length; start += 100) {
    const items = await getItems(deps, wanted.slice(start, start + 100));
    for (const item of items) if (item) found.push(recordOf<T>(item));
  }
  return found;
}

/** One kind of record in one partition of an index: its sort keys all begin with `prefix`. */
export interface IndexedList {
  index: 'gsi1' | 'gsi2' | 'gsi3';
  partition: string;
  prefix: string;
}

/**
 * Page `page` of a list kept in an index without a count item, newest first: the records of the
 * page, and whether any record follows it. One Query for page 1 (a page's size and one more); a
 * deeper page reads past the earlier ones, as counted lists do. The range is the prefix up to its
 * last possible character (a BETWEEN, which DynamoDB Local reads as a range; `begins_with` costs
 * the same on DynamoDB).
 */
export async function indexedPage<T>(
  deps: Deps,
  list: IndexedList,
  page: PageRequest,
): Promise<{ records: T[]; more: boolean }> {
  const offset = (page.page - 1) * page.pageSize;
  const wanted = offset + page.pageSize + 1;
  const records: T[] = [];
  let seen = 0;
  let more = false;
  await queryEach(
    deps,
    {
      IndexName: list.index,
      KeyConditionExpression: `${list.index}pk = :pk AND ${list.index}sk BETWEEN :from AND :to`,
      ExpressionAttributeValues: {
        ':pk': list.partition,
        ':from': list.prefix,
        ':to': `${list.prefix}\u{10FFFF}`,
      },
      ScanIndexForward: false,
    },
    (item) => {
      if (seen >= offset + page.pageSize) {
        more = true;
        return false;
      }
      if (seen >= offset) records.push(recordOf<T>(item));
      seen += 1;
      return true;
    },
    () => wanted - seen,
  );
  return { records, more };
}
