/**
 * One customer's charges and subscriptions, from the customer index (gsi3), against the local table:
 * only that customer's records of that account and mode, newest first, page by page; a subscription
 * given its customer later joins the list; records stored before the index get their keys from the
 * reindex.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { useLocalEnvironment } from '../../test/support/stack.ts';
import { type Charge, newCharge } from '../charges/charge.ts';
import { chargeKeys } from '../charges/keys.ts';
import { chargeEntity, chargeReindexer, chargeWrites, listCustomerCharges } from '../charges/repository.ts';
import type { Mode, Scope } from '../core/account.ts';
import { prefixedId } from '../core/ids.ts';
import { makeDeps } from '../db/deps.ts';
import { reindex } from '../db/reindex.ts';
import { transactWrite } from '../db/transact.ts';
import { subscriptionKeys } from './keys.ts';
import { started } from './page.ts';
import {
  getSubscription,
  listCustomerSubscriptions,
  saveSubscription,
  storeSubscription,
  subscriptionEntity,
  subscriptionReindexer,
} from './repository.ts';
import type { Subscription } from './subscription.ts';

useLocalEnvironment();
const deps = makeDeps();
const developerId = 800_000 + Math.floor(Math.random() * 99_999);
const scope: Scope = { developerId, mode: 'test' };
const base = Date.parse('2026-05-01T00:00:00.000Z');
/** A distinct creation time for the n-th record (ms apart, so newest first is well defined). */
const at = (n: number) => new Date(base + n * 1000);

function charge(customerId: string | null, n: number, where: Scope = scope): Charge {
  return newCharge({
    id: prefixedId('ch'),
    developerId: where.developerId,
    mode: where.mode,
    source: 'checkout',
    paymentId: null,
    attemptId: prefixedId('att'),
    customerId,
    amount: 1000 + n,
    currency: 'USD',
    description: `charge ${n}`,
    statementDescription: 'CUSTIDX',
    card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099, country: 'US' },
    acquirerReference: `ref-${n}`,
    now: at(n),
  });
}

function subscription(
  customerId: string | null,
  n: number,
  status: Subscription['status'] = 'active',
  where: Scope = scope,
): Subscription {
  const created = at(n).toISOString();
  return {
    id: prefixedId('sub'),
    developer_id: where.developerId,
    mode: where.mode,
    plan_id: 'gold',
    plan: { name: 'Gold', amount: 1050, currency: 'USD', interval: 'month', interval_count: 1 },
    quantity: 1,
    customer_id: customerId,
    status,
    active: status !== 'canceled',
    statement_descriptor: 'GOLD',
    card_token: status === 'pending' ? null : 'card-token',
    anchor: status === 'pending' ? null : created,
    trial_end: null,
    paid_through: status === 'pending' ? -1 : 0,
    failed_attempts: 0,
    failed_at: null,
    next_action_at: null,
    version: 1,
    created_at: created,
    updated_at: created,
    canceled_at: null,
  } as Subscription;
}

const storeCharge = (stored: Charge) => transactWrite(deps, chargeWrites(deps.table, stored, at(0)));
const ids = (records: { id: string }[]) => records.map((record) => record.id);

describe("a customer's charges", () => {
  it("lists only that customer's, of that account and mode, newest first, a page at a time", async () => {
    const mine = randomUUID();
    const other = randomUUID();
    const own: Charge[] = [];
    for (let n = 1; n <= 7; n++) {
      const stored = charge(mine, n * 10);
      await storeCharge(stored);
      own.push(stored);
      // Between each of the customer's own: another customer's, one with none, another mode's and
      // another account's under the same customer id, all newer than the customer's own.
      await storeCharge(charge(other, n * 10 + 1));
      await storeCharge(charge(null, n * 10 + 2));
      await storeCharge(charge(mine, n * 10 + 3, { developerId, mode: 'live' as Mode }));
      await storeCharge(charge(mine, n * 10 + 4, { developerId: developerId + 1, mode: 'test' }));
    }
    const newestFirst = ids(own).reverse();

    const first = await listCustomerCharges(deps, scope, mine, { page: 1, pageSize: 3 });
    const second = await listCustomerCharges(deps, scope, mine, { page: 2, pageSize: 3 });
    const third = await listCustomerCharges(deps, scope, mine, { page: 3, pageSize: 3 });
    expect([ids(first.records), first.more]).toEqual([newestFirst.slice(0, 3), true]);
    expect([ids(second.records), second.more]).toEqual([newestFirst.slice(3, 6), true]);
    expect([ids(third.records), third.more]).toEqual([newestFirst.slice(6), false]);
    // The records come back as stored, without the table's keys.
    expect(first.records[0]).toEqual(own[6]);
    // A page that ends exactly at the last record has nothing after it; one past the end is empty.
    expect((await listCustomerCharges(deps, scope, mine, { page: 1, pageSize: 7 })).more).toBe(false);
    expect(await listCustomerCharges(deps, scope, mine, { page: 4, pageSize: 3 })).toEqual({
      records: [],
      more: false,
    });
    // The live charges are the live mode's own list.
    const live = await listCustomerCharges(deps, { developerId, mode: 'live' }, mine, {
      page: 1,
      pageSize: 10,
    });
    expect(live.records.map((record) => record.mode)).toEqual(Array(7).fill('live'));
    expect((await listCustomerCharges(deps, scope, 'cus_nobody', { page: 1, pageSize: 10 })).records).toEqual(
      [],
    );
  });
});

describe("a customer's subscriptions", () => {
  it("lists only that customer's, newest first, and one given its customer later joins the list", async () => {
    const mine = randomUUID();
    const other = randomUUID();
    const own: Subscription[] = [];
    for (let n = 1; n <= 4; n++) {
      const stored = subscription(mine, 100 + n * 10, n === 2 ? 'canceled' : 'active');
      await storeSubscription(deps, stored);
      own.push(stored);
      await storeSubscription(deps, subscription(other, 100 + n * 10 + 1));
      await storeSubscription(
        deps,
        subscription(mine, 100 + n * 10 + 2, 'active', { developerId, mode: 'live' }),
      );
    }
    // A subscription made for nobody yet (its checkout names the customer), then paid by this one.
    const pending = subscription(null, 200, 'pending');
    await storeSubscription(deps, pending);
    const before = await listCustomerSubscriptions(deps, scope, mine, { page: 1, pageSize: 10 });
    expect(ids(before.records)).toEqual(ids(own).reverse());
    expect(before.more).toBe(false);

    const after = started(
      pending,
      {
        customerId: mine,
        cardToken: 'tok',
        card: { brand: 'visa', last4: '4242' },
        paidAt: at(201),
        trialDays: 0,
      },
      at(201),
    );
    expect(await saveSubscription(deps, pending, after, [])).toBe(true);
    const joined = await listCustomerSubscriptions(deps, scope, mine, { page: 1, pageSize: 2 });
    expect([ids(joined.records), joined.more]).toEqual([[pending.id, own[3]?.id], true]);
    expect(joined.records[0]).toEqual(await getSubscription(deps, scope, pending.id));
    const rest = await listCustomerSubscriptions(deps, scope, mine, { page: 2, pageSize: 2 });
    expect([ids(rest.records), rest.more]).toEqual([[own[2]?.id, own[1]?.id], true]);
    // The other customer's list never holds this one's.
    const theirs = await listCustomerSubscriptions(deps, scope, other, { page: 1, pageSize: 10 });
    expect(theirs.records.map((record) => record.customer_id)).toEqual(Array(4).fill(other));
  });
});

describe('the reindex', () => {
  it('gives charges and subscriptions stored before the customer index their place in it, once', async () => {
    const mine = randomUUID();
    // As stored before the index existed: the item without its gsi3 keys.
    const withoutIndex = (item: Record<string, unknown>) => {
      const { gsi3pk: _pk, gsi3sk: _sk, ...rest } = item;
      expect(_pk).toBeDefined();
      return rest;
    };
    const oldCharge = charge(mine, 300);
    const oldSubscription = subscription(mine, 301);
    const anonymous = charge(null, 302);
    for (const item of [
      withoutIndex(chargeEntity.item(oldCharge)),
      withoutIndex(subscriptionEntity.item(oldSubscription)),
      chargeEntity.item(anonymous),
    ])
      await deps.db.send(new PutCommand({ TableName: deps.table, Item: item }));
    const listed = async () => [
      ids((await listCustomerCharges(deps, scope, mine, { page: 1, pageSize: 10 })).records),
      ids((await listCustomerSubscriptions(deps, scope, mine, { page: 1, pageSize: 10 })).records),
    ];
    expect(await listed()).toEqual([[], []]);

    const reindexers = {
      [chargeEntity.tag]: chargeReindexer,
      [subscriptionEntity.tag]: subscriptionReindexer,
    };
    const first = await reindex(deps, reindexers);
    expect(first.records.charge).toBeGreaterThanOrEqual(2);
    expect(await listed()).toEqual([[oldCharge.id], [oldSubscription.id]]);
    // Each item is the one a new write would store; the charge with no customer has no key.
    const stored = async () =>
      Promise.all(
        [
          chargeKeys.charge(developerId, 'test', oldCharge.id),
          subscriptionKeys.subscription(developerId, 'test', oldSubscription.id),
          chargeKeys.charge(developerId, 'test', anonymous.id),
        ].map(async (Key) => (await deps.db.send(new GetCommand({ TableName: deps.table, Key }))).Item),
      );
    const expected = [
      chargeEntity.item(oldCharge),
      subscriptionEntity.item(oldSubscription),
      chargeEntity.item(anonymous),
    ];
    expect(await stored()).toEqual(expected);
    expect(expected[2]?.gsi3pk).toBeUndefined();
    // Running it again changes none of them.
    await reindex(deps, reindexers);
    expect(await stored()).toEqual(expected);
    expect(await listed()).toEqual([[oldCharge.id], [oldSubscription.id]]);
  });
});
