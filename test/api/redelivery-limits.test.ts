/**
 * POST /v1/events/{id}/redeliver/ is bounded (counted in the table, so every Lambda counts on the
 * same items): 5 redeliveries of one event an hour and 100 of an account in one mode; past either
 * it is 429 in the message envelope with Retry-After, and nothing more is sent.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { redeliveryLimits } from '../../shared/webhooks/events.ts';
import { webhookKeys } from '../../shared/webhooks/keys.ts';
import { expectMessage } from '../support/answers.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { concurrently, statusCounts } from '../support/race.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';

let receiver: Receiver;
beforeAll(async () => {
  useLocalEnvironment();
  receiver = await startReceiver();
});

const redeliver = (auth: string, eventId: string) =>
  api('POST', `/v1/events/${eventId}/redeliver/`, { auth });

/** Asserts a 429 in the message envelope whose Retry-After is a whole number of seconds within the hour. */
function expectLimited(answer: Awaited<ReturnType<typeof api>>, limit: number) {
  expectMessage(answer, 429, { type: 'error' });
  expect(answer.json.content).toContain(String(limit));
  const retryAfter = answer.headers.get('retry-after');
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThan(0);
  expect(Number(retryAfter)).toBeLessThanOrEqual(3600);
}

/** The delivery tasks stored for one event and endpoint: one per round of sending. */
async function tasksOf(account: TestAccount, endpointId: string, eventId: string) {
  const deps = makeDeps();
  const { pk, sk } = webhookKeys.task(account.developerId, 'test', endpointId, eventId, '');
  const found = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': sk },
      ConsistentRead: true,
    }),
  );
  return found.Items ?? [];
}

describe('redelivery of one event', () => {
  let account: TestAccount;
  let auth: string;
  let endpoint: { id: string; path: string };
  beforeAll(async () => {
    account = await newAccount('redelivery-limits');
    auth = apiKey(account.testKey);
    const path = '/limited';
    const created = await api('POST', '/v1/webhook-endpoints/', {
      auth,
      body: { url: `${receiver.url}${path}`, events: ['payment.succeeded'] },
    });
    expect(created.status, created.text).toBe(201);
    endpoint = { id: created.json.data.id as string, path };
  });

  /** A new payment.succeeded, once its first delivery arrived: its id. */
  async function deliveredEvent(): Promise<string> {
    const before = new Set(receiver.received.map((request) => request.headers['webhook-id']));
    await payThroughCheckout(auth);
    const [first] = await receiver.waitFor(
      (request) => request.path === endpoint.path && !before.has(request.headers['webhook-id']),
      1,
    );
    return String(first?.headers['webhook-id']);
  }
  const deliveriesOf = (eventId: string, count: number) =>
    receiver.waitFor((request) => request.headers['webhook-id'] === eventId, count);

  it(`the ${redeliveryLimits.perEvent + 1}th redelivery is 429 with Retry-After, and nothing more is sent`, async () => {
    const eventId = await deliveredEvent();
    for (let i = 0; i < redeliveryLimits.perEvent; i++) {
      const answer = await redeliver(auth, eventId);
      expect(answer.status, answer.text).toBe(202);
    }
    expect(await deliveriesOf(eventId, 1 + redeliveryLimits.perEvent)).toHaveLength(
      1 + redeliveryLimits.perEvent,
    );
    expectLimited(await redeliver(auth, eventId), redeliveryLimits.perEvent);
    // Naming the endpoint is the same event: limited too.
    const named = await api('POST', `/v1/events/${eventId}/redeliver/`, {
      auth,
      body: { endpoint_id: endpoint.id },
    });
    expectLimited(named, redeliveryLimits.perEvent);
    // A delivery is a task made by the request: none was made after the limit, so none is sent.
    expect(await tasksOf(account, endpoint.id, eventId)).toHaveLength(1 + redeliveryLimits.perEvent);
    // Another event of the account is not limited by this one's count.
    const other = await deliveredEvent();
    expect((await redeliver(auth, other)).status).toBe(202);
  });

  it('30 at once: exactly the limit are sent, the rest are 429', async () => {
    const eventId = await deliveredEvent();
    const answers = await concurrently(30, () => redeliver(auth, eventId));
    expect(statusCounts(answers)).toEqual({
      202: redeliveryLimits.perEvent,
      429: 30 - redeliveryLimits.perEvent,
    });
    for (const answer of answers.filter((one) => one.status === 429)) {
      expectLimited(answer, redeliveryLimits.perEvent);
    }
    await deliveriesOf(eventId, 1 + redeliveryLimits.perEvent);
    expect(await tasksOf(account, endpoint.id, eventId)).toHaveLength(1 + redeliveryLimits.perEvent);
  });
});

describe('redeliveries of an account', () => {
  it(`past ${redeliveryLimits.perAccount} in a mode within the hour, every event is 429; the other mode is not`, async () => {
    const account = await newAccount('redelivery-account');
    const auth = apiKey(account.testKey);
    // Events that go nowhere (no endpoint): a deleted plan stores plan.deleted.
    const events = Math.ceil(redeliveryLimits.perAccount / redeliveryLimits.perEvent) + 1;
    await concurrently(events, async () => {
      const plan = await api('POST', '/v1/plans/', {
        auth,
        body: { name: 'Gone', currency: 'USD', amount: '1.00', interval: 'month', interval_count: 1 },
      });
      expect(plan.status, plan.text).toBe(201);
      expect((await api('DELETE', `/v1/plans/${plan.json.data.id}/`, { auth })).status).toBe(200);
    });
    const listed = await api('GET', '/v1/events/?type=plan.deleted&page_size=100', { auth });
    const ids = (listed.json.results as { id: string }[]).map((event) => event.id);
    expect(ids).toHaveLength(events);
    const [spare, ...used] = ids as [string, ...string[]];
    const answers = (
      await Promise.all(
        used.map(async (id) => {
          const mine = [];
          for (let i = 0; i < redeliveryLimits.perEvent; i++) mine.push(await redeliver(auth, id));
          return mine;
        }),
      )
    ).flat();
    expect(statusCounts(answers)).toEqual({ 202: redeliveryLimits.perAccount });
    expectLimited(await redeliver(auth, spare), redeliveryLimits.perAccount);
    // The live mode keeps its own count.
    const live = apiKey(account.liveKey);
    const plan = await api('POST', '/v1/plans/', {
      auth: live,
      body: { name: 'Live', currency: 'USD', amount: '1.00', interval: 'month', interval_count: 1 },
    });
    expect((await api('DELETE', `/v1/plans/${plan.json.data.id}/`, { auth: live })).status).toBe(200);
    const liveEvent = (await api('GET', '/v1/events/?type=plan.deleted', { auth: live })).json.results[0].id;
    expect((await redeliver(live, liveEvent)).status).toBe(202);
  });
});
