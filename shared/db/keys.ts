/**
 * How keys of the single table are made, not which: each area and port builds its own keys in its
 * own `keys.ts` (plans in shared/plans/keys.ts, the events outbox in shared/events/keys.ts, …), from
 * the pieces here that several of them share: the key types, the prefix of everything an account
 * owns in a mode, the shard of an id, the due indexes, the counted lists and the search index.
 * A key string is written only in a `keys.ts`; stored items keep their keys for good, which
 * shared/db/key-shapes.test.ts holds against literal strings.
 */

import type { Mode } from '../core/account.ts';

export interface ItemKey {
  pk: string;
  sk: string;
}

/** Where an item sits in gsi1, the per-account-and-mode list index. */
export interface ListKey {
  gsi1pk: string;
  gsi1sk: string;
}

/** Where an item sits in gsi2 (a second list, or a sparse due index). */
export interface SecondListKey {
  gsi2pk: string;
  gsi2sk: string;
}

/**
 * Where an item sits in gsi3, the per-customer index: a customer's charges and subscriptions under
 * one partition, each kind sorted `<tag>#<created>#<id>` so one backwards Query pages one kind.
 */
export interface CustomerListKey {
  gsi3pk: string;
  gsi3sk: string;
}

/**
 * The gsi3 partition of one customer's records in an account and mode. It spells the same string as
 * the customer's own table partition (customers/keys.ts): another attribute, another index, no clash.
 */
export const customerRecordsPartition = (developerId: number, mode: Mode, customerId: string) =>
  `${scopePrefix(developerId, mode)}#CUSTOMER#${customerId}`;

/** The partition of an account's own records (its profile, its sequences), whatever the mode. */
export const accountPartition = (developerId: number) => `ACCOUNT#${developerId}`;

/** Everything an account owns in one mode lives under this prefix. */
export const scopePrefix = (developerId: number, mode: Mode) => `${accountPartition(developerId)}#${mode}`;

/** A stable shard of an id: the sum of its character codes, modulo `count`. */
export function shardOf(id: string, count: number): number {
  let sum = 0;
  for (const char of id) sum += char.charCodeAt(0);
  return sum % count;
}

/**
 * How many partitions each due index has (billing, recurring links, webhook retries, attempts'
 * recovery); db/due.ts reads them all.
 */
export const dueShards = 4;

/** One partition of the due index `index` (`BILLING`, `LINK`, …). */
export const duePartition = (index: string, shard: number) => `DUE#${index}#${shard}`;

/**
 * Where the entry of `id` sits in the due index `index`: in the partition of the id's shard, sorted
 * by due time and then id, so a run reads what is due by Query.
 */
export const dueSlot = (index: string, id: string, dueAt: string) => ({
  partition: duePartition(index, shardOf(id, dueShards)),
  sort: `${dueAt}#${id}`,
});

/**
 * The keys of a counted list (db/lists.ts) of an account and mode: each record in gsi1 under
 * `<scope>#<list>`, sorted `<tag>#<created>#<id>`, and the count item in the same gsi1 partition,
 * sorting after every record (`~` > `#`), so one backwards Query reads the count and then page 1.
 */
export function countedListKeys(list: string, tag: string) {
  const partition = (developerId: number, mode: Mode) => `${scopePrefix(developerId, mode)}#${list}`;
  return {
    /** The gsi1 sort-key prefix of the list's records (`PLAN` for `PLAN#…`). */
    tag,
    /** A record's place in the list: newest first when read backwards. */
    inList: (developerId: number, mode: Mode, createdAt: string, id: string): ListKey => ({
      gsi1pk: partition(developerId, mode),
      gsi1sk: `${tag}#${createdAt}#${id}`,
    }),
    /** How many records the account has in a mode. */
    count: (developerId: number, mode: Mode): ItemKey & ListKey => ({
      pk: partition(developerId, mode),
      sk: 'COUNT',
      gsi1pk: partition(developerId, mode),
      gsi1sk: `${tag}~COUNT`,
    }),
  };
}

/** Between a search entry's text and its record id (texts never hold control characters). */
const searchSeparator = '\u001f';
/** The partition of a search term: its kind and first character. */
const searchPartition = (developerId: number, mode: Mode, kind: string, term: string) =>
  `${scopePrefix(developerId, mode)}#SEARCH#${kind}#${Array.from(term)[0] ?? ''}`;

/** The substring index's keys (shared/db/search.ts), for every kind of record it indexes. */
export const searchKeys = {
  partition: searchPartition,
  /** One entry: a suffix of a record's searchable text, in the partition of its first character. */
  entry: (developerId: number, mode: Mode, kind: string, term: string, recordId: string): ItemKey => ({
    pk: searchPartition(developerId, mode, kind, term),
    sk: `${term}${searchSeparator}${recordId}`,
  }),
  separator: searchSeparator,
};

/** What the health probe reads: account 0's record, which never exists (account ids start at 1). */
export const probeKey: ItemKey = { pk: accountPartition(0), sk: 'ACCOUNT' };
