/**
 * Substring search without a Scan (docs/design.md#search: case-insensitive substring matches on plan
 * names, product names and SKUs, customers' first names and e-mails).
 *
 * A text contains a query exactly when one of the text's suffixes begins with it. So a record is
 * indexed by one small item per distinct suffix of its searchable texts, keyed
 * `<scope>#SEARCH#<kind>#<first character>` / `<suffix>\u001f<record id>`, and a search is one Query for the
 * sort keys that begin with the query on the partition of the query's first character. What a search reads
 * grows with the entries that match, never with the account's other records or the table.
 *
 * A record's index entries are written and deleted in the same transaction as the record (only the
 * suffixes that change), so a search never finds a record that is not stored that way. A write
 * costs one small item per new suffix: a 6-character first name and a 20-character e-mail are at
 * most 26 entries.
 */
import type { Mode } from '../core/account.ts';
import type { Deps } from './deps.ts';
import { queryEach } from './items.ts';
import { searchKeys } from './keys.ts';
import { type TransactItem, transactWrite } from './transact.ts';

/** The longest text (and query) the index knows; longer ones match nothing (fields are shorter). */
export const maxSearchText = 256;

/** Sorts after every character (UTF-8 F4 8F BF BF); texts never hold it. */
const lastCodePoint = '\u{10FFFF}';

/** Searchable text as the index stores it: NFC, lower case, no control characters, trimmed. */
export function normalizeSearch(text: string): string {
  const kept = Array.from(text.normalize('NFC').toLowerCase()).filter((char) => {
    const code = char.codePointAt(0) ?? 0;
    return code > 0x1f && code !== 0x7f && code !== 0x10ffff;
  });
  return kept.join('').trim();
}

/** Every distinct suffix of the texts (by code point, normalized): the index entries of a record. */
export function searchTerms(texts: readonly (string | null | undefined)[]): Set<string> {
  const terms = new Set<string>();
  for (const text of texts) {
    if (!text) continue;
    const chars = Array.from(normalizeSearch(text).slice(0, maxSearchText));
    for (let start = 0; start < chars.length; start++) {
      const suffix = chars.slice(start).join('');
      if (suffix.trim()) terms.add(suffix);
    }
  }
  return terms;
}

/** Which index: an account and mode's records of one kind. */
export interface SearchScope {
  developerId: number;
  mode: Mode;
  kind: string;
}

/**
 * The transaction items that move a record's index entries from the texts it had (`before`,
 * empty for a new record) to the texts it has (`after`, empty when it is deleted). Only the
 * suffixes that change are written. `createdAt` orders search results (newest first).
 */
export function searchIndexWrites(
  table: string,
  scope: SearchScope,
  record: { id: string; createdAt: string },
  before: readonly (string | null | undefined)[],
  after: readonly (string | null | undefined)[],
): TransactItem[] {
  const old = searchTerms(before);
  const next = searchTerms(after);
  const writes: TransactItem[] = [];
  for (const term of old) {
    if (next.has(term)) continue;
    writes.push({
      Delete: {
        TableName: table,
        Key: searchKeys.entry(scope.developerId, scope.mode, scope.kind, term, record.id),
      },
    });
  }
  for (const term of next) {
    if (old.has(term)) continue;
    writes.push({
      Put: {
        TableName: table,
        // As small as an entry can be (a search reads every matching one): keys and creation time.
        Item: {
          ...searchKeys.entry(scope.developerId, scope.mode, scope.kind, term, record.id),
          created_at: record.createdAt,
        },
      },
    });
  }
  return writes;
}

/** A record a search found: its id and creation time (for newest-first order). */
export interface SearchHit {
  id: string;
  createdAt: string;
}

/**
 * The records whose indexed texts contain `query` (case-insensitive), newest first, each once.
 * One Query (more pages only when the matches pass 1 MB); an empty or over-long query finds none.
 */
export async function searchIndex(deps: Deps, scope: SearchScope, query: string): Promise<SearchHit[]> {
  const term = normalizeSearch(query);
  if (!term || Array.from(term).length > maxSearchText) return [];
  const found = new Map<string, string>();
  await queryEach(
    deps,
    {
      // begins_with(sk, term) as a range: the same items and cost on DynamoDB, and DynamoDB Local
      // walks a whole partition for begins_with (45 ms at 200,000 entries, 5 ms as a range).
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :term AND :last',
      ExpressionAttributeValues: {
        ':pk': searchKeys.partition(scope.developerId, scope.mode, scope.kind, term),
        ':term': term,
        ':last': `${term}${lastCodePoint}`,
      },
    },
    (item) => {
      const sk = String(item.sk);
      found.set(sk.slice(sk.lastIndexOf(searchKeys.separator) + 1), String(item.created_at));
      return true;
    },
  );
  return [...found]
    .map(([id, createdAt]) => ({ id, createdAt }))
    .sort((a, b) =>
      a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt),
    );
}

/** Most items DynamoDB takes in one transaction. */
const transactionLimit = 100;

/**
 * Writes a record change with its index entries: the record's own writes and as many entries as
 * fit in one transaction, then any entries left (only texts of hundreds of characters have that
 * many suffixes) in further transactions of plain puts and deletes. The record's writes lead the
 * first transaction, so a refusal of theirs reads as if they were written alone (by name too).
 */
export async function writeWithIndex(
  deps: Deps,
  recordWrites: TransactItem[],
  indexWrites: TransactItem[],
): Promise<void> {
  const room = transactionLimit - recordWrites.length;
  await transactWrite(deps, [...recordWrites, ...indexWrites.slice(0, room)]);
  for (let start = room; start < indexWrites.length; start += transactionLimit) {
    await transactWrite(deps, indexWrites.slice(start, start + transactionLimit));
  }
}
