/**
 * Every decline of a card its holder presented counts once in the overview's declines, wherever it
 * was presented, against the local stack: the legacy charge (a refused card, and a card asking for a
 * 3-D Secure challenge it cannot make) and the customer portal's card page. The unpaid period of a
 * past-due subscription, charged on the new card right after the page and refused, is a failed
 * renewal and no decline. An internal decline handed to the counting function again counts nothing,
 * and the rebuild command, from the stored events alone, lands on the figures counted live.
 */
import { DeleteCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { EventBridgeEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { internalEventSource } from '../../shared/events/event.ts';
import { eventKeys } from '../../shared/events/keys.ts';
import { statsKeys } from '../../shared/stats/keys.ts';
import { overview } from '../../shared/stats/repository.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { subscriptionKeys } from '../../shared/subscriptions/keys.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { csrfOf, openPage, postForm, submitCard, testCards } from '../support/checkout.ts';
import { cli } from '../support/cli.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import {
  api,
  apiKey,
  basic,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';

type Handler = (event: EventBridgeEvent<string, unknown>) => Promise<void>;
let countEvent: Handler;

let account: TestAccount;
let auth: string;
let planId: string;
const day = 86_400_000;

beforeAll(async () => {
  // The function builds its clients at import: the environment must point at the stack first.
  useLocalEnvironment();
  ({ handler: countEvent } = await import('../../functions/dashboard/count-events.ts'));
  account = await newAccount('stats-declines');
  auth = apiKey(account.testKey);
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(plan.status, plan.text).toBe(201);
  planId = plan.json.data.id as string;
});

const scope = () => ({ developerId: account.developerId, mode: 'test' as const });

/** The overview's totals once the pipeline carried every event stored so far. */
async function totals() {
  await pipelineDrained(localInfo, account.developerId);
  return (await overview(makeDeps(), scope(), new Date())).totals;
}

/** The internal `card.declined` events stored for the account in test mode, as stored. */
async function internalDeclines() {
  const deps = makeDeps();
  const { gsi2pk } = eventKeys.internalOfType(account.developerId, 'test', 'card.declined', '', '');
  const stored = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi2pk },
    }),
  );
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of the stored details
  return (stored.Items ?? []).map((item) => item.detail as Record<string, any>);
}

/** The legacy charge of `number`, urlencoded, as an integration written before payments posts it. */
const legacyCharge = (number: string) =>
  api('POST', '/v1/charges/simple/create/', {
    auth: basic(account.testKey),
    rawBody: new URLSearchParams({
      amount: '10.00',
      currency: 'usd',
      credit_card_number: number,
      credit_card_security_code_number: '123',
      exp_month: '12',
      exp_year: String(new Date().getUTCFullYear() + 3),
    }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });

/** A customer of the account, with the portal page's URL. */
async function customerWithPortal() {
  const email = `declines-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const created = await api('POST', '/v1/customers/', {
    auth,
    body: { first_name: 'Grace', last_name: 'Hopper', email },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.json.data.id as string;
  const portal = await api('POST', `/v1/customers/${id}/portal/`, { auth });
  expect(portal.status, portal.text).toBe(201);
  return { id, portal: portal.json.url as string };
}

/** Opens the card page of `subscriptionId` from the portal page: its URL. */
async function cardPage(portal: string, subscriptionId: string) {
  const page = await openPage(portal);
  expect(page.status, page.html).toBe(200);
  const answer = await postForm(portal, {
    csrf_token: csrfOf(page.html),
    action: 'card',
    subscription_id: subscriptionId,
  });
  expect(answer.status, answer.html).toBe(303);
  return answer.location as string;
}

const subscriptionOf = async (id: string) => (await api('GET', `/v1/subscriptions/${id}`, { auth })).json;

describe('declines in the overview', () => {
  it('counts each legacy charge declined, a card that needs 3-D Secure (which it cannot do) included', async () => {
    expect((await totals()).declines).toBe(0);
    for (const [number, reason] of [
      [testCards.genericDecline, 'generic_decline'],
      [testCards.challenge, 'authentication_required'],
    ] as const) {
      const declined = await legacyCharge(number);
      expect(declined.status, declined.text).toBe(402);
      expect(declined.json.error.decline_reason).toBe(reason);
    }
    expect(await totals()).toMatchObject({ charges: 0, declines: 2, failed_renewals: 0 });
    expect((await internalDeclines()).map((detail) => detail.data)).toEqual([
      { source: 'legacy', decline_reason: 'generic_decline' },
      { source: 'legacy', decline_reason: 'authentication_required' },
    ]);
    // An internal event is cobro's own: the events API does not show it, even to the account it is of.
    const [first] = await internalDeclines();
    expect(first?.id).toMatch(/^evt_/);
    expect((await api('GET', `/v1/events/${first?.id}/`, { auth })).status).toBe(404);
    // An approved legacy charge is a charge, no decline.
    expect((await legacyCharge(testCards.approved)).status).toBe(201);
    expect(await totals()).toMatchObject({ charges: 1, declines: 2 });
  });

  it('counts a card declined at the portal card page, each try; the unpaid period refused after it is a failed renewal only', async () => {
    // An active subscription whose holder tries a card that declines, twice, then one approved.
    const customer = await customerWithPortal();
    const active = await subscribe({
      account,
      planId,
      anchor: new Date(Date.now() - day).toISOString(),
      customerId: customer.id,
    });
    const page = await cardPage(customer.portal, active.id);
    for (const number of [testCards.genericDecline, testCards.insufficientFunds]) {
      const declined = await submitCard(page, { card_number: number });
      expect(declined.status, declined.html).toBe(402);
    }
    expect((await submitCard(page)).status).toBe(303);
    expect(await totals()).toMatchObject({ declines: 4, failed_renewals: 0 });

    // A past-due one (its renewal refused by the billing run: a failed renewal). The new card
    // passes its check, then the charge of the unpaid period on it is refused: another failed
    // renewal, and no decline.
    const other = await customerWithPortal();
    const due = await subscribe({
      account,
      planId,
      anchor: new Date(Date.now() - 32 * day).toISOString(),
      customerId: other.id,
      card: testCards.declinesWhenStored,
    });
    await runBilling({ ...makeDeps(), acquirer: simulatedAcquirer() }, new Date(), {
      developerId: account.developerId,
    });
    expect((await subscriptionOf(due.id)).status).toBe('past_due');
    expect((await totals()).failed_renewals).toBe(1);
    const replaced = await submitCard(await cardPage(other.portal, due.id), {
      card_number: testCards.declinesWhenStored,
    });
    expect(replaced.status, replaced.html).toBe(303);
    expect((await subscriptionOf(due.id)).status).toBe('past_due');
    const table = makeDeps();
    const stored = await table.db.send(
      new GetCommand({
        TableName: table.table,
        Key: subscriptionKeys.subscription(account.developerId, 'test', due.id),
      }),
    );
    expect(stored.Item).toMatchObject({ card: { last4: '0341' }, failed_attempts: 2 });
    expect(await totals()).toMatchObject({ declines: 4, failed_renewals: 2 });
    expect(
      (await internalDeclines())
        .filter((detail) => detail.data.source === 'card')
        .map((detail) => detail.data.decline_reason),
    ).toEqual(['generic_decline', 'insufficient_funds']);
  });

  it('counts an internal decline delivered twice once', async () => {
    const before = await totals();
    const stored = await internalDeclines();
    expect(stored.length).toBe(4);
    for (const detail of stored)
      await countEvent({
        id: 'delivery',
        version: '0',
        account: '000000000000',
        time: String(detail.created_at),
        region: 'us-east-1',
        resources: [],
        source: internalEventSource,
        'detail-type': String(detail.type),
        detail,
      });
    expect(await totals()).toEqual(before);
  });

  it('stats rebuild, from the stored events, lands on the declines and failed renewals counted live', async () => {
    const live = await totals();
    const deps = makeDeps();
    const items = await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': statsKeys.partition(account.developerId, 'test') },
      }),
    );
    for (const item of items.Items ?? [])
      await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: { pk: item.pk, sk: item.sk } }));
    expect((await overview(deps, scope(), new Date())).totals.declines).toBe(0);
    const summary = JSON.parse(
      (await cli('stats', 'rebuild', '--account', String(account.developerId))).stdout,
    );
    expect(summary.modes.test).toMatchObject({ declines: 4, failed_renewals: 2 });
    expect((await overview(deps, scope(), new Date())).totals).toEqual(live);
  });
});
