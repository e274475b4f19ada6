/**
 * Idempotency-Key on POST /v1/plans/ through the local gateway, and the plan count under concurrent
 * writes.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expect400, expectMessage, expectReplayed } from '../support/answers.ts';
import { type Body, countOf, getPlan, keysOf, list, namesOf, planBody, plansPath } from '../support/plans.ts';
import { concurrently } from '../support/race.ts';
import { api, apiKey, bearer, newAccount, newMerchant, tokenFor } from '../support/stack.ts';

describe('Idempotency-Key on POST /v1/plans/', () => {
  const post = (auth: string, key: string, body: Body, query = '') =>
    api('POST', `${plansPath}${query}`, { auth, body, headers: { 'Idempotency-Key': key } });

  it('the same key and body replays the first answer, and only one plan exists', async () => {
    const { auth } = await newMerchant('plan-idem');
    const key = `idem-${randomUUID()}`;
    const body = planBody({ name: 'Once' });
    const first = await post(auth, key, body);
    const second = await post(auth, key, { ...body });
    expectReplayed(first, second, 201);
    expect(second.json.data.id).toBe(first.json.data.id);
    expect(await countOf(auth)).toBe(1);
  });

  it('the same key with another body is 409 and creates nothing', async () => {
    const { auth } = await newMerchant('plan-idem-409');
    const key = `idem-${randomUUID()}`;
    expect((await post(auth, key, planBody({ name: 'First' }))).status).toBe(201);
    const conflict = await post(auth, key, planBody({ name: 'Second' }));
    expectMessage(conflict, 409);
    expect(await countOf(auth)).toBe(1);
    expect(namesOf(await list(auth))).toEqual(['First']);
  });

  it('keys are scoped to the account and the mode', async () => {
    const [a, b] = await Promise.all([newAccount('plan-idem-a'), newAccount('plan-idem-b')]);
    const key = `shared-${randomUUID()}`;
    const body = planBody({ name: 'Scoped' });
    const fromA = await post(apiKey(a.testKey), key, body);
    const fromB = await post(apiKey(b.testKey), key, body);
    const fromALive = await post(apiKey(a.liveKey), key, body);
    for (const answer of [fromA, fromB, fromALive]) {
      expect(answer.status).toBe(201);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(new Set([fromA.json.data.id, fromB.json.data.id, fromALive.json.data.id]).size).toBe(3);
    expect(await countOf(apiKey(a.testKey))).toBe(1);
    expect(await countOf(apiKey(b.testKey))).toBe(1);
    expect(await countOf(apiKey(a.liveKey))).toBe(1);
    expect((await getPlan(apiKey(b.testKey), fromB.json.data.id)).status).toBe(200);
  });

  it('within one account and mode the credential does not matter, nor the order of body fields', async () => {
    const account = await newAccount('plan-idem-cred');
    const key = `cred-${randomUUID()}`;
    const first = await post(apiKey(account.testKey), key, planBody({ name: 'Ordered' }));
    expect(first.status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(planBody({ name: 'Ordered' })).reverse());
    const viaBearer = await post(bearer(await tokenFor(account)), key, reordered, '?test=true');
    expect(viaBearer.status).toBe(201);
    expect(viaBearer.headers.get('idempotent-replayed')).toBe('true');
    expect(viaBearer.json.data.id).toBe(first.json.data.id);
    expect(await countOf(apiKey(account.testKey))).toBe(1);
  });

  it('a malformed Idempotency-Key is 400 and creates nothing', async () => {
    const { auth } = await newMerchant('plan-idem-bad');
    for (const key of ['k'.repeat(256), 'has space']) {
      expect400(await post(auth, key, planBody()));
    }
    expect(await countOf(auth)).toBe(0);
  });

  it('a request that failed may be retried with its key', async () => {
    const { auth } = await newMerchant('plan-idem-retry');
    const key = `retry-${randomUUID()}`;
    const failed = await post(auth, key, planBody({ amount: '10.505' }));
    expect(failed.status).toBe(400);
    const again = await post(auth, key, planBody({ amount: '10.505' }));
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const fixed = await post(auth, key, planBody({ amount: '10.50' }));
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    const replay = await post(auth, key, planBody({ amount: '10.50' }));
    expect(replay.status).toBe(201);
    expect(replay.json.data.id).toBe(fixed.json.data.id);
    expect(await countOf(auth)).toBe(1);
  });

  it('10 concurrent requests with one key create exactly one plan', async () => {
    const { auth } = await newMerchant('plan-idem-race');
    const key = `race-${randomUUID()}`;
    const body = planBody({ name: 'Raced' });
    const answers = await concurrently(10, () => post(auth, key, body));
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.every((status) => status === 201 || status === 409),
      statuses.join(),
    ).toBe(true);
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.json.data.id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.json.code).toBe(409);
    const listed = await list(auth);
    expect(listed.json.count).toBe(1);
    expect(keysOf(listed)).toEqual([created[0]?.json.data.id]);
  });
});

describe('the plan count under concurrency', () => {
  it('20 concurrent creations are all counted', async () => {
    const { auth } = await newMerchant('plan-count-race');
    const answers = await concurrently(20, (i) =>
      api('POST', plansPath, { auth, body: planBody({ name: `Concurrent ${i}` }) }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const ids = new Set(answers.map((answer) => answer.json.data.id as string));
    expect(ids.size).toBe(20);
    const listed = await list(auth, 'page_size=100');
    expect(listed.json).toMatchObject({ count: 20, current_page: 1, total_pages: 1 });
    expect(new Set(keysOf(listed))).toEqual(ids);
    expect((await list(auth, 'subscribers_min=0')).json.count).toBe(20);
  });
});
