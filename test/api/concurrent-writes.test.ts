/**
 * Many requests changing one record at once, through the local gateway: each answers 200 (its change
 * stored) or 409 (it lost to the others every time it tried), never a 500, and the record ends as
 * the sum of the answered changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { webhookKeys } from '../../shared/webhooks/keys.ts';
import { endpointEntity } from '../../shared/webhooks/repository.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { concurrently, statusCounts } from '../support/race.ts';
import { startReceiver, verify } from '../support/receiver.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';

const racers = 30;

let account: TestAccount;
let auth: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  useLocalEnvironment();
  receiver = await startReceiver();
  account = await newAccount('racing-writes');
  auth = apiKey(account.testKey);
});

async function register(path: string) {
  const created = await api('POST', '/v1/webhook-endpoints/', {
    auth,
    body: { url: `${receiver.url}${path}`, events: ['payment.succeeded'] },
  });
  expect(created.status, created.text).toBe(201);
  return { id: created.json.data.id as string, secret: created.json.data.secret as string };
}

/** The endpoint as stored (its version counts the changes that were stored). */
async function stored(id: string) {
  const endpoint = await endpointEntity.get(
    makeDeps(),
    webhookKeys.endpoint(account.developerId, 'test', id),
  );
  if (!endpoint) throw new Error(`endpoint ${id} is not stored`);
  return endpoint;
}

/** Every answer is 200 or 409; a 409 is the contract's message envelope. */
function expectOnlyStoredOrConflict(answers: Awaited<ReturnType<typeof api>>[]) {
  const counts = statusCounts(answers);
  expect(
    Object.keys(counts).filter((status) => status !== '200' && status !== '409'),
    JSON.stringify(counts),
  ).toEqual([]);
  expect(counts[200] ?? 0).toBeGreaterThan(0);
  for (const answer of answers.filter((one) => one.status === 409)) {
    expect(answer.json).toMatchObject({ code: 409, type: 'error', title: expect.any(String) });
    expect(answer.json.content).toMatch(/at the same time/);
  }
  return counts[200] ?? 0;
}

describe('racing writes to one webhook endpoint', () => {
  it(`${racers} rotate-secret at once answer 200 or 409; the endpoint signs with the last secret stored`, async () => {
    const path = '/rotated';
    const endpoint = await register(path);
    const answers = await concurrently(racers, () =>
      api('POST', `/v1/webhook-endpoints/${endpoint.id}/rotate-secret/`, { auth }),
    );
    const rotated = expectOnlyStoredOrConflict(answers);
    expect((await stored(endpoint.id)).version).toBe(1 + rotated);
    const secrets = answers.filter((one) => one.status === 200).map((one) => one.json.data.secret as string);
    // A delivery carries the stored secret and the one it replaced: both answered to a caller (or
    // the first), so no rotation that answered 200 was lost and none that answered 409 was kept.
    await payThroughCheckout(auth);
    const [delivery] = await receiver.waitFor((request) => request.path === path, 1);
    const signatures = String(delivery?.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    const signers = [endpoint.secret, ...secrets].filter((secret) => {
      try {
        verify(secret, delivery as never);
        return true;
      } catch {
        return false;
      }
    });
    expect(signers).toHaveLength(2);
  });

  it(`${racers} PUT at once answer 200 or 409; the endpoint keeps the description of one that answered 200`, async () => {
    const endpoint = await register('/updated');
    const answers = await concurrently(racers, (index) =>
      api('PUT', `/v1/webhook-endpoints/${endpoint.id}/`, { auth, body: { description: `racer ${index}` } }),
    );
    const updated = expectOnlyStoredOrConflict(answers);
    const after = await stored(endpoint.id);
    expect(after.version).toBe(1 + updated);
    const stored200 = answers.flatMap((one, index) => (one.status === 200 ? [`racer ${index}`] : []));
    expect(stored200).toContain(after.description);
    const shown = await api('GET', `/v1/webhook-endpoints/${endpoint.id}/`, { auth });
    expect(shown.json.description).toBe(after.description);
  });
});
