/**
 * `cobro search reindex`: records stored without search entries become findable. `cobro reindex`:
 * charges and subscriptions stored before the customer index reach their customer's portal.
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { newCharge } from '../../shared/charges/charge.ts';
import { chargeKeys } from '../../shared/charges/keys.ts';
import { chargeEntity } from '../../shared/charges/repository.ts';
import { prefixedId } from '../../shared/core/ids.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { searchKeys } from '../../shared/db/keys.ts';
import { subscriptionKeys } from '../../shared/subscriptions/keys.ts';
import { subscriptionEntity } from '../../shared/subscriptions/repository.ts';
import type { Subscription } from '../../shared/subscriptions/subscription.ts';
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

describe('reindex', () => {
  it("gives charges and subscriptions stored before the customer index their place in it: the customer's portal lists them", async () => {
    const account = await newAccount('custidx');
    const auth = apiKey(account.testKey);
    const email = `wombat-${Date.now()}@zoo.example`;
    const customer = await api('POST', '/v1/customers/', {
      auth,
      body: { first_name: 'Wombat', last_name: 'Z', email },
    });
    expect(customer.status).toBe(201);
    const customerId = customer.json.data.id as string;
    useLocalEnvironment();
    const deps = makeDeps();
    const now = new Date();
    const charge = newCharge({
      id: prefixedId('ch'),
      developerId: account.developerId,
      mode: 'test',
      source: 'checkout',
      paymentId: null,
      attemptId: prefixedId('att'),
      customerId,
      amount: 1234,
      currency: 'USD',
      description: 'Old wombat charge',
      statementDescription: 'WOMBAT',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099, country: 'US' },
      acquirerReference: 'old',
      now,
    });
    const at = now.toISOString();
    const subscription: Subscription = {
      id: prefixedId('sub'),
      developer_id: account.developerId,
      mode: 'test',
      plan_id: 'old-plan',
      plan: { name: 'Old wombat plan', amount: 990, currency: 'USD', interval: 'month', interval_count: 1 },
      quantity: 1,
      customer_id: customerId,
      status: 'active',
      active: true,
      statement_descriptor: 'WOMBAT',
      card_token: 'old-card',
      anchor: at,
      trial_end: null,
      paid_through: 0,
      failed_attempts: 0,
      failed_at: null,
      next_action_at: null,
      version: 1,
      created_at: at,
      updated_at: at,
      canceled_at: null,
    };
    // As stored before the customer index existed: the items without their gsi3 keys.
    for (const item of [chargeEntity.item(charge), subscriptionEntity.item(subscription)]) {
      const { gsi3pk, gsi3sk: _, ...old } = item;
      expect(gsi3pk).toBe(`ACCOUNT#${account.developerId}#test#CUSTOMER#${customerId}`);
      await deps.db.send(new PutCommand({ TableName: deps.table, Item: old }));
    }
    const portal = await api('POST', `/v1/customers/${customerId}/portal/`, { auth });
    expect(portal.status).toBe(201);
    const page = async () => {
      const response = await fetch(portal.json.url);
      expect(response.status).toBe(200);
      const html = await response.text();
      return [html.includes(charge.id), html.includes('Old wombat plan')];
    };
    expect(await page()).toEqual([false, false]);

    const summary = JSON.parse((await cli('reindex')).stdout);
    expect(Object.keys(summary.records).sort()).toEqual([
      'charge',
      'customer',
      'plan',
      'product',
      'subscription',
    ]);
    expect(summary.records.charge).toBeGreaterThanOrEqual(1);
    expect(Number.isInteger(summary.keyed) && Number.isInteger(summary.entries)).toBe(true);
    expect(await page()).toEqual([true, true]);
    // Again: the same items (other test files may store records meanwhile, so the summary's
    // figures are not this test's to pin).
    await cli('reindex');
    expect(await page()).toEqual([true, true]);
    for (const [item, key] of [
      [chargeEntity.item(charge), chargeKeys.charge(account.developerId, 'test', charge.id)],
      [
        subscriptionEntity.item(subscription),
        subscriptionKeys.subscription(account.developerId, 'test', subscription.id),
      ],
    ] as const)
      expect((await deps.db.send(new GetCommand({ TableName: deps.table, Key: key }))).Item).toEqual(item);
  });
});
