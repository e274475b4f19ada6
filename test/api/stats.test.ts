/**
 * The dashboard overview's counters against the local stack: real payments (one after two declined
 * tries), a refund, a subscription activated at checkout and one canceled, a renewal declined by the
 * billing run; once the pipeline carried their events, overview() answers their figures. The same
 * event handed to the rule's function again counts nothing; another account, and the other mode,
 * see none of it. Then the rebuild command, from the records alone, lands on the same figures.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EventBridgeEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { eventSource } from '../../shared/events/event.ts';
import { mrrScale } from '../../shared/stats/counters.ts';
import { statsKeys } from '../../shared/stats/keys.ts';
import { type Overview, overview } from '../../shared/stats/repository.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { createPayment, payThroughCheckout, submitCard, testCards } from '../support/checkout.ts';
import { cli } from '../support/cli.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import {
  api,
  apiKey,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import { storedEventItems } from '../support/table.ts';

type Handler = (event: EventBridgeEvent<string, unknown>) => Promise<void>;
let countEvent: Handler;

let account: TestAccount;
let other: TestAccount;
let auth: string;
const day = 86_400_000;

beforeAll(async () => {
  // The function builds its clients at import: the environment must point at the stack first.
  useLocalEnvironment();
  ({ handler: countEvent } = await import('../../functions/dashboard/count-events.ts'));
  [account, other] = await Promise.all([newAccount('stats'), newAccount('stats-other')]);
  auth = apiKey(account.testKey);
});

const test = (developerId: number) => ({ developerId, mode: 'test' as const });

async function newPlan(body: Record<string, unknown>) {
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Stats plan', currency: 'USD', ...body },
  });
  expect(plan.status, plan.text).toBe(201);
  return plan.json.data.id as string;
}

/** A subscription paid at its checkout with an approved card (after `declined` tries): activated. */
async function activated(planId: string, quantity: number, declined: readonly string[] = []) {
  const created = await api('POST', '/v1/subscriptions', {
    auth,
    body: { plan_id: planId, quantity, return_url: 'https://shop.example/welcome' },
  });
  expect(created.status, created.text).toBe(201);
  const { subscription_id: id, checkout_url: url } = created.json.data as Record<string, string>;
  for (const card of declined) {
    const answer = await submitCard(url as string, { card_number: card });
    expect(answer.status, answer.html).toBe(402);
  }
  const paid = await submitCard(url as string, { email: `stats-${Date.now()}@example.com` });
  expect(paid.status, paid.html).toBe(303);
  return id as string;
}

/** A stored event's detail, read by any path (as the table support answers it). */
type Detail = Awaited<ReturnType<typeof storedEventItems>>[number];

/** Hands an event's detail to the counting rule's function, as the bus would. */
const deliver = (detail: Detail) =>
  countEvent({
    id: 'delivery',
    version: '0',
    account: '000000000000',
    time: detail.created_at,
    region: 'us-east-1',
    resources: [],
    source: eventSource,
    'detail-type': detail.type,
    detail,
  });

/** The overview's figures that tests compare (the exact revenue, a bigint, as text). */
const figures = (seen: Overview) => ({
  totals: { ...seen.totals, day: undefined },
  active: seen.active_subscriptions,
  mrr: seen.mrr,
  exact: Object.fromEntries(Object.entries(seen.mrrExact).map(([code, value]) => [code, String(value)])),
});

let counted: Overview;

describe('the overview of an account', () => {
  it('counts charges, volume per currency, refunds, declines with retries, subscriptions and failed renewals', async () => {
    // A payment in USD, refunded in part; one in EUR.
    const first = await payThroughCheckout(auth, { payment: { amount: '12.34' } });
    const refund = await api('POST', '/v1/refunds/', {
      auth,
      body: { charge_id: first.chargeId, amount: '2.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    await payThroughCheckout(auth, { payment: { amount: '5.00', currency: 'EUR' } });

    // Declined twice at the checkout, then paid: two declines and one charge.
    const retried = await createPayment(auth, { amount: '7.00' });
    for (const card of [testCards.genericDecline, testCards.insufficientFunds]) {
      const declined = await submitCard(retried.url, { card_number: card });
      expect(declined.status, declined.html).toBe(402);
    }
    expect((await submitCard(retried.url)).status).toBe(303);

    // 30.00 every 3 months × 2 stays (paid after one declined try at its checkout, which stores
    // no payment.failed); 120.00 a year is canceled. Each paid its first period.
    const quarterly = await activated(
      await newPlan({ amount: '30.00', interval: 'month', interval_count: 3 }),
      2,
      [testCards.expiredCard],
    );
    const yearly = await activated(
      await newPlan({ amount: '120.00', interval: 'year', interval_count: 1 }),
      1,
    );
    const canceled = await api('DELETE', `/v1/subscriptions/${yearly}`, { auth });
    expect(canceled.status, canceled.text).toBe(200);

    // A payment link's page: declined once (an internal event tells it), then paid.
    const link = await api('POST', '/v1/payment-links/', {
      auth,
      body: { description: 'Lesson', amount: '25.50' },
    });
    expect(link.status, link.text).toBe(201);
    const page = link.json.data.link as string;
    expect((await submitCard(page, { card_number: testCards.insufficientFunds })).status).toBe(402);
    expect((await submitCard(page)).status).toBe(200);

    // A renewal declined by the billing run (a card that declines charges without its holder).
    const due = await subscribe({
      account,
      planId: await newPlan({ amount: '10.50', interval: 'month', interval_count: 1 }),
      anchor: new Date(Date.now() - 33 * day).toISOString(),
      card: testCards.declinesWhenStored,
    });
    await runBilling({ ...makeDeps(), acquirer: simulatedAcquirer() }, new Date(), {
      developerId: account.developerId,
    });
    expect((await api('GET', `/v1/subscriptions/${due.id}`, { auth })).json.status).toBe('past_due');

    await pipelineDrained(localInfo, account.developerId);
    counted = await overview(makeDeps(), test(account.developerId), new Date());
    expect(counted.totals).toMatchObject({
      charges: 6,
      volume: { USD: 1234 + 700 + 6000 + 12000 + 2550, EUR: 500 },
      refunds: 1,
      refunded: { USD: 200 },
      declines: 4,
      failed_renewals: 1,
    });
    // Active: the quarterly one only (the yearly was canceled; the past-due one was stored without
    // a checkout, so no activation counted it). Its revenue: 60.00 / 3 a month, exactly.
    expect(counted.active_subscriptions).toBe(1);
    expect(counted.mrr).toEqual({ USD: 2000 });
    expect(counted.mrrExact).toEqual({ USD: 2000n * mrrScale });
    expect(quarterly).toMatch(/^sub_/);
    // 30 days, today last; the days add up to the totals.
    expect(counted.days).toHaveLength(30);
    expect(counted.days.reduce((sum, d) => sum + d.charges, 0)).toBe(6);
    expect(counted.days.at(-1)?.day).toBe(new Date().toISOString().slice(0, 10));
  }, 90_000);

  it('counts an event delivered twice once', async () => {
    const stored = await storedEventItems(account.developerId, 'test');
    const again = [
      'charge.succeeded',
      'refund.created',
      'payment.failed',
      'subscription.activated',
      'subscription.canceled',
      'subscription.payment_failed',
    ].map((type) => stored.find((item) => item.detail.type === type)?.detail);
    expect(again.every(Boolean)).toBe(true);
    for (const detail of again) await deliver(detail);
    const after = await overview(makeDeps(), test(account.developerId), new Date());
    expect(figures(after)).toEqual(figures(counted));
  });

  it('reads the price an activation carries, or the subscription for one stored without it, and counts a subscription once', async () => {
    const stored = await storedEventItems(account.developerId, 'test');
    const quarterly = stored
      .map((item) => item.detail)
      .find((detail) => detail.type === 'subscription.activated' && detail.data.price?.interval_count === 3);
    expect(quarterly?.data.price).toEqual({
      amount: '30.00',
      currency: 'USD',
      interval: 'month',
      interval_count: 3,
      quantity: 2,
    });
    // Another event activating the same subscription, without the price: still counted once.
    const { price: _price, ...data } = quarterly.data;
    const older = { ...quarterly, id: `evt_${randomUUID().replaceAll('-', '').slice(0, 24)}`, data };
    await deliver(older);
    expect(figures(await overview(makeDeps(), test(account.developerId), new Date()))).toEqual(
      figures(counted),
    );
  });

  it('a cancellation the bus hands over before its activation leaves nothing counted', async () => {
    const stored = (await storedEventItems(account.developerId, 'test')).map((item) => item.detail);
    const activation = stored.find((detail) => detail.type === 'subscription.activated');
    const cancellation = stored.find((detail) => detail.type === 'subscription.canceled');
    const third = await newAccount('stats-order');
    const newId = () => `evt_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const about = (detail: Detail) => ({
      ...detail,
      id: newId(),
      developer_id: third.developerId,
      data: { ...detail.data, object: { ...detail.data.object, subscription_id: 'sub_out_of_order' } },
    });
    // Canceled first, then activated: the activation finds it canceled and adds nothing.
    for (const detail of [about(cancellation), about(activation)]) await deliver(detail);
    const seen = await overview(makeDeps(), test(third.developerId), new Date());
    expect([seen.active_subscriptions, seen.mrr]).toEqual([0, {}]);
    // In order, another one counts, then is taken away: nothing left, and the revenue back to zero.
    const inOrder = (detail: Detail) => ({
      ...about(detail),
      data: { ...detail.data, object: { ...detail.data.object, subscription_id: 'sub_in_order' } },
    });
    await deliver(inOrder(activation));
    expect((await overview(makeDeps(), test(third.developerId), new Date())).active_subscriptions).toBe(1);
    await deliver(inOrder(cancellation));
    const after = await overview(makeDeps(), test(third.developerId), new Date());
    expect([after.active_subscriptions, after.mrrExact]).toEqual([
      0,
      { [activation.data.price.currency]: 0n },
    ]);
  });

  it('another account, and the same account in the other mode, see none of it', async () => {
    const empty = {
      charges: 0,
      declines: 0,
      refunds: 0,
      failed_renewals: 0,
      volume: {},
      refunded: {},
    };
    for (const scope of [
      test(other.developerId),
      { developerId: account.developerId, mode: 'live' as const },
    ]) {
      const seen = await overview(makeDeps(), scope, new Date());
      expect(seen.totals).toMatchObject(empty);
      expect(seen.active_subscriptions).toBe(0);
      expect(seen.mrr).toEqual({});
      expect(seen.days.every((d) => d.charges === 0)).toBe(true);
    }
  });
});

describe('stats rebuild', () => {
  it('recomputes the counters from the records alone, and again lands on the same', async () => {
    // As an account from before the counters: none of its counter items.
    useLocalEnvironment();
    const deps = makeDeps();
    const items = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': statsKeys.partition(account.developerId, 'test') },
      }),
    );
    expect(items.Items?.length).toBeGreaterThan(1);
    for (const item of items.Items ?? [])
      await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: { pk: item.pk, sk: item.sk } }));
    expect((await overview(deps, test(account.developerId), new Date())).totals.charges).toBe(0);

    const run = async () =>
      JSON.parse((await cli('stats', 'rebuild', '--account', String(account.developerId))).stdout);
    const summary = await run();
    expect(summary).toEqual({
      account: account.developerId,
      modes: {
        test: { days: 1, charges: 6, refunds: 1, declines: 4, failed_renewals: 1, active_subscriptions: 2 },
        live: { days: 0, charges: 0, refunds: 0, declines: 0, failed_renewals: 0, active_subscriptions: 0 },
      },
    });
    const rebuilt = await overview(deps, test(account.developerId), new Date());
    // Every figure of the window, the declines at the subscription's and the link's checkouts
    // included (internal events, read from their own list).
    expect(rebuilt.totals).toEqual(counted.totals);
    // The records also hold the past-due subscription, stored without a checkout (2 × 10.50 a month).
    expect(rebuilt.active_subscriptions).toBe(2);
    expect(rebuilt.mrr).toEqual({ USD: 2000 + 2100 });

    await run();
    expect(figures(await overview(deps, test(account.developerId), new Date()))).toEqual(figures(rebuilt));
  });

  it('names a missing or wrong --account', async () => {
    await expect(cli('stats', 'rebuild')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--account is required'),
    });
    await expect(cli('stats', 'rebuild', '--account', 'x')).rejects.toMatchObject({ code: 2 });
  });
});
