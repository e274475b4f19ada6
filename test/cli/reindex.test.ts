/** `cobro search reindex`: records stored without search entries become findable. */
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { keys } from '../../shared/db/keys.ts';
import { cli } from '../support/cli.ts';
import { api, apiKey, newAccount, useLocalEnvironment } from '../support/stack.ts';

describe('search reindex', () => {
  it('writes the entries a plan stored before the index lacks, and running it again changes nothing', async () => {
    const account = await newAccount('reindex');
    const auth = apiKey(account.testKey);
    const created = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Quokka club', currency: 'USD', amount: '5.00', interval: 'month', interval_count: 1 },
    });
    expect(created.status).toBe(201);
    const found = async () => (await api('GET', '/v1/plans/?name=okka', { auth })).status;
    expect(await found()).toBe(200);

    // As a plan stored before search entries existed: none of its entries.
    useLocalEnvironment();
    const deps = makeDeps();
    const developerId = account.developerId;
    for (const first of new Set('quokka club'.split(''))) {
      const partition = keys.searchPartition(developerId, 'test', 'plan', first);
      const entries = await deps.db.send(
        new QueryCommand({
          TableName: deps.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': partition },
        }),
      );
      for (const entry of entries.Items ?? [])
        await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: { pk: entry.pk, sk: entry.sk } }));
    }
    expect(await found()).toBe(400); // the plan list: filters matching nothing

    const summary = JSON.parse((await cli('search', 'reindex')).stdout);
    expect(summary.records.plan).toBeGreaterThanOrEqual(1);
    expect(summary.entries).toBeGreaterThanOrEqual('quokka club'.length - 1);
    expect(await found()).toBe(200);
    const again = JSON.parse((await cli('search', 'reindex')).stdout);
    expect(again.records.plan).toBeGreaterThanOrEqual(summary.records.plan);
    const list = await api('GET', '/v1/plans/?name=quokka', { auth });
    expect(list.json.count).toBe(1);
  });
});
