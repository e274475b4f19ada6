import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { useLocalEnvironment } from '../../test/support/stack.ts';
import { makeDeps } from './deps.ts';
import { searchKeys } from './keys.ts';
import { normalizeSearch, searchIndex, searchIndexWrites, searchTerms, writeWithIndex } from './search.ts';

describe('searchTerms', () => {
  it('is every distinct suffix of every text, lower-cased', () => {
    expect([...searchTerms(['Ana', null, 'na'])].sort()).toEqual(['a', 'ana', 'na']);
  });

  it('counts characters by code point and drops control characters', () => {
    expect([...searchTerms(['Zoë😀'])].sort()).toEqual(['oë😀', 'zoë😀', 'ë😀', '😀'].sort());
    expect(normalizeSearch(' A\u0000B\u001fc ')).toBe('abc');
  });
});

describe('the search index against the local table', () => {
  useLocalEnvironment();
  const deps = makeDeps();
  const scope = {
    developerId: 900_000 + Math.floor(Math.random() * 99_999),
    mode: 'test' as const,
    kind: 'thing',
  };
  const index = (id: string, createdAt: string, before: string[], after: string[]) =>
    writeWithIndex(deps, [], searchIndexWrites(deps.table, scope, { id, createdAt }, before, after));
  const ids = async (query: string) => (await searchIndex(deps, scope, query)).map((hit) => hit.id);

  it('finds a substring anywhere in any text, case-insensitively, newest first, each record once', async () => {
    await index('one', '2026-01-01T00:00:00.000Z', [], ['Banana', 'anna@example.com']);
    await index('two', '2026-01-02T00:00:00.000Z', [], ['Anabel', 'abel@example.org']);
    expect(await ids('ANA')).toEqual(['two', 'one']);
    expect(await ids('nan')).toEqual(['one']);
    expect(await ids('@EXAMPLE.')).toEqual(['two', 'one']);
    expect(await ids('example.org')).toEqual(['two']);
    expect(await ids('bananas')).toEqual([]);
    expect(await ids('   ')).toEqual([]);
  });

  it('moves only the changed suffixes when a text changes, and forgets a deleted record', async () => {
    const writes = searchIndexWrites(deps.table, scope, { id: 'x', createdAt: 'c' }, ['abc'], ['xbc']);
    // "bc" and "c" stay; "abc" goes, "xbc" comes.
    expect(writes.map((write) => Object.keys(write)[0])).toEqual(['Delete', 'Put']);
    await index('three', '2026-01-03T00:00:00.000Z', [], ['Carla']);
    expect(await ids('carl')).toEqual(['three']);
    await index('three', '2026-01-03T00:00:00.000Z', ['Carla'], ['Marla']);
    expect(await ids('carl')).toEqual([]);
    expect(await ids('marl')).toEqual(['three']);
    await index('three', '2026-01-03T00:00:00.000Z', ['Marla'], []);
    expect(await ids('arla')).toEqual([]);
  });

  it('finds texts that go on past the Basic Multilingual Plane after the query', async () => {
    await index('emoji', '2026-01-05T00:00:00.000Z', [], ['Party😀🎉 time']);
    expect(await ids('party')).toEqual(['emoji']);
    expect(await ids('😀🎉')).toEqual(['emoji']);
    expect(await ids('y😀')).toEqual(['emoji']);
  });

  it('indexes texts whose suffixes do not fit one transaction', async () => {
    const long = `${'q'.repeat(150)}tail@example.com`;
    await index('long', '2026-01-04T00:00:00.000Z', [], [long]);
    expect(await ids('qqqtail@')).toEqual(['long']);
    expect(await ids(long)).toEqual(['long']);
  });

  it('reads only the entries that match, not the account’s other records', async () => {
    const other = { ...scope, kind: 'crowd' };
    const writes = Array.from({ length: 60 }, (_, i) =>
      searchIndexWrites(deps.table, other, { id: `r${i}`, createdAt: 'c' }, [], [`zz${i}`]),
    ).flat();
    for (let start = 0; start < writes.length; start += 100)
      await writeWithIndex(deps, [], writes.slice(start, start + 100));
    const partition = searchKeys.partition(other.developerId, other.mode, other.kind, 'zz7');
    const read = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :term)',
        ExpressionAttributeValues: { ':pk': partition, ':term': 'zz7' },
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    expect(read.Count).toBe(1);
    expect((await searchIndex(deps, other, 'zz7')).map((hit) => hit.id)).toEqual(['r7']);
    expect(await searchIndex(deps, { ...other, mode: 'live' }, 'zz7')).toEqual([]);
    expect(await searchIndex(deps, { ...other, developerId: other.developerId + 1 }, 'zz7')).toEqual([]);
  });
});
