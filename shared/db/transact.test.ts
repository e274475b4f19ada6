/** Named transaction items against DynamoDB Local: a refusal reads back by the names of the items that refused. */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalEnvironment } from '../../test/support/stack.ts';
import { makeDeps } from './deps.ts';
import type { ItemKey } from './keys.ts';
import { failedConditions, named, transactNamed } from './transact.ts';

beforeAll(() => useLocalEnvironment());

/** A key of this test's own, never another test's or a record's. */
const freshKey = (sk: string): ItemKey => ({ pk: `transact-test/${randomUUID()}`, sk });

describe('failedConditions', () => {
  it('names the items whose conditions refused, whatever their places in the transaction', async () => {
    const deps = makeDeps();
    const stored = freshKey('stored');
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...stored, tag: 'first' } }));
    const put = (key: ItemKey) => ({
      Put: { TableName: deps.table, Item: { ...key }, ConditionExpression: 'attribute_not_exists(pk)' },
    });
    const items = [
      ...named('free', put(freshKey('a')), put(freshKey('b'))),
      ...named('none'),
      ...named('unconditioned', { Put: { TableName: deps.table, Item: freshKey('c') } }),
      ...named('taken', {
        Put: {
          ...put(stored).Put,
          Item: { ...stored, tag: 'second' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
        },
      }),
      ...named('missing', {
        ConditionCheck: {
          TableName: deps.table,
          Key: freshKey('d'),
          ConditionExpression: 'attribute_exists(pk)',
        },
      }),
    ];
    const error = await transactNamed(deps, items).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const failed = failedConditions(error, items);
    expect([...failed.keys()].sort()).toEqual(['missing', 'taken']);
    // The refused write asked for the item it found: it comes back under its name.
    const found = failed.get('taken');
    expect(found && unmarshall(found)).toEqual({ ...stored, tag: 'first' });
    expect(failed.get('missing')).toBeUndefined();
  });

  it('names each item once, with what the first of its refused writes found', async () => {
    const deps = makeDeps();
    const [one, two] = [freshKey('one'), freshKey('two')];
    for (const [key, tag] of [
      [one, 'one'],
      [two, 'two'],
    ] as const) {
      await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...key, tag } }));
    }
    const refused = (key: ItemKey) => ({
      Put: {
        TableName: deps.table,
        Item: { ...key },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    });
    const items = named('both', refused(one), refused(two));
    const failed = failedConditions(
      await transactNamed(deps, items).catch((caught: unknown) => caught),
      items,
    );
    expect([...failed.keys()]).toEqual(['both']);
    const found = failed.get('both');
    expect(found && unmarshall(found)).toEqual({ ...one, tag: 'one' });
  });

  it('is empty for a transaction written, or for an error that is no refusal', async () => {
    const deps = makeDeps();
    const items = named('new', { Put: { TableName: deps.table, Item: freshKey('e') } });
    await expect(transactNamed(deps, items)).resolves.toBeUndefined();
    expect(failedConditions(new Error('the network went away'), items).size).toBe(0);
    expect(failedConditions(undefined, items).size).toBe(0);
  });
});
