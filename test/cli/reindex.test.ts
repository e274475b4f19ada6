/** `cobro search reindex`: records stored without search entries become findable. */
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { searchKeys } from '../../shared/db/keys.ts';
import { cli } from '../support/cli.ts';
import { api, apiKey, apiUrl, newAccount, useLocalEnvironment } from '../support/stack.ts';

describe('search reindex', () => {
  it('writes the entries that plans, customers and products stored before the index lack, and running it again changes nothing', async () => {
    const account = await newAccount('reindex');
    const auth = apiKey(account.testKey);
    const created = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Quokka club', currency: 'USD', amount: '5.00', interval: 'month', interval_count: 1 },
    });
    expect(created.status).toBe(201);
    const email = `quokka-${Date.now()}@zoo.example`;
    expect(
      (await api('POST', '/v1/customers/', { auth, body: { first_name: 'Quokkina', last_name: 'Z', email } }))
        .status,
    ).toBe(201);
    const form = new FormData();
    form.set('name', 'Quokka mug');
    form.set('price', '3.00');
    expect(
      (
        await fetch(`${apiUrl}/v1/products/`, {
          method: 'POST',
          headers: { Authorization: auth },
          body: form,
        })
      ).status,
    ).toBe(201);
    const found = async () => (await api('GET', '/v1/plans/?name=okka', { auth })).status;
    const customers = async () => (await api('GET', '/v1/customers/?search=okkin', { auth })).status;
    const products = async () => (await api('GET', '/v1/products/?search=okka', { auth })).json.count;
    expect([await found(), await customers(), await products()]).toEqual([200, 200, 1]);

    // As a plan stored before search entries existed: none of its entries.
    useLocalEnvironment();
    const deps = makeDeps();
    const developerId = account.developerId;
    const partitions = [...new Set(`quokka club mug quokkina ${email}`.split(''))].flatMap((first) =>
      ['plan', 'customer', 'product'].map((kind) => searchKeys.partition(developerId, 'test', kind, first)),
    );
    /** This account's search entries (pk|sk), sorted: other files write their own meanwhile. */
    const ownEntries = async () => {
      const keys: string[] = [];
      for (const partition of partitions) {
        const entries = await deps.db.send(
          new QueryCommand({
            TableName: deps.table,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': partition },
          }),
        );
        for (const entry of entries.Items ?? []) keys.push(`${entry.pk}|${entry.sk}`);
      }
      return keys.sort();
    };
    const written = await ownEntries();
    expect(written.length).toBeGreaterThanOrEqual('quokka club'.length - 1);
    for (const key of written) {
      const [pk, sk] = key.split('|');
      await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: { pk, sk } }));
    }
    expect(await ownEntries()).toEqual([]);
    // the plan list: filters matching nothing are 400; the customer search view 404; products count 0
    expect([await found(), await customers(), await products()]).toEqual([400, 404, 0]);

    const summary = JSON.parse((await cli('search', 'reindex')).stdout);
    // The run counts every account's records: ours are among them.
    expect(Object.keys(summary.records).sort()).toEqual(['customer', 'plan', 'product']);
    for (const kind of ['customer', 'plan', 'product'])
      expect(summary.records[kind]).toBeGreaterThanOrEqual(1);
    expect(summary.entries).toBeGreaterThanOrEqual(written.length);
    // This account's entries are back, exactly those its records were written with.
    expect(await ownEntries()).toEqual(written);
    expect([await found(), await customers(), await products()]).toEqual([200, 200, 1]);
    // Again: the same entries, none more.
    JSON.parse((await cli('search', 'reindex')).stdout);
    expect(await ownEntries()).toEqual(written);
    const list = await api('GET', '/v1/plans/?name=quokka', { auth });
    expect(list.json.count).toBe(1);
  });
});
