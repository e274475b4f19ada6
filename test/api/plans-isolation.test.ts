/**
 * Plans through the local gateway are each account's and mode's own: another account's or mode's key
 * neither sees nor changes them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expect400 } from '../support/answers.ts';
import {
  countOf,
  createPlan,
  getPlan,
  keysOf,
  list,
  planBody,
  planPath,
  plansPath,
} from '../support/plans.ts';
import { api, apiKey, bearer, newAccount, type TestAccount, tokenFor } from '../support/stack.ts';

describe('isolation between accounts and modes', () => {
  let owner: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    [owner, other] = await Promise.all([newAccount('plan-owner'), newAccount('plan-other')]);
  });

  it("another account's plan is 404 to GET, PUT and DELETE and absent from its list", async () => {
    const id = await createPlan(apiKey(owner.testKey), { name: 'Private' });
    const auth = apiKey(other.testKey);
    for (const response of [
      await getPlan(auth, id),
      await api('PUT', planPath(id), { auth, body: { name: 'Hijacked' } }),
      await api('DELETE', planPath(id), { auth }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.json.code).toBe(404);
    }
    const listed = await list(auth);
    expect(listed.status).toBe(200);
    expect(listed.json.count).toBe(0);
    const otherBearer = bearer(await tokenFor(other));
    expect((await getPlan(otherBearer, id, '?test=true')).status).toBe(404);
    expect((await list(auth, 'name=private')).status).toBe(400);
    const still = await getPlan(apiKey(owner.testKey), id);
    expect(still.status).toBe(200);
    expect(still.json.information.name).toBe('Private');
  });

  it('test plans are invisible to the live key and live plans to the test key', async () => {
    const account = await newAccount('plan-modes');
    const test = apiKey(account.testKey);
    const live = apiKey(account.liveKey);
    const testId = await createPlan(test, { name: 'Test only' });
    expect((await getPlan(live, testId)).status).toBe(404);
    expect(await countOf(live)).toBe(0);
    expect((await api('PUT', planPath(testId), { auth: live, body: { name: 'x' } })).status).toBe(404);
    expect((await api('DELETE', planPath(testId), { auth: live })).status).toBe(404);
    const liveId = await createPlan(live, { name: 'Live only' });
    const liveGot = await getPlan(live, liveId);
    expect(liveGot.status).toBe(200);
    expect(liveGot.json.test).toBe(false);
    expect((await getPlan(test, liveId)).status).toBe(404);
    const testList = await list(test);
    expect(testList.json.count).toBe(1);
    expect(keysOf(testList)).toEqual([testId]);
    const liveList = await list(live);
    expect(keysOf(liveList)).toEqual([liveId]);
    expect((await getPlan(test, testId)).json.information.name).toBe('Test only');
  });

  it('a bearer token sees test plans with ?test=true and live plans without it', async () => {
    const account = await newAccount('plan-bearer');
    const token = bearer(await tokenFor(account));
    const testId = await createPlan(apiKey(account.testKey), { name: 'T' });
    const liveId = await createPlan(apiKey(account.liveKey), { name: 'L' });
    expect((await getPlan(token, testId, '?test=true')).status).toBe(200);
    expect((await getPlan(token, testId)).status).toBe(404);
    expect((await getPlan(token, testId, '?test=false')).status).toBe(404);
    expect((await getPlan(token, liveId)).status).toBe(200);
    expect((await getPlan(token, liveId, '?test=true')).status).toBe(404);
    const testList = await list(token, 'test=true');
    expect(keysOf(testList)).toEqual([testId]);
    const liveList = await list(token);
    expect(keysOf(liveList)).toEqual([liveId]);
    const created = await createPlan(token, { name: 'Bearer live' });
    expect((await getPlan(apiKey(account.liveKey), created)).json.test).toBe(false);
  });

  it('a test parameter contradicting the key is 403, one agreeing is accepted', async () => {
    const account = await newAccount('plan-mode-param');
    const test = apiKey(account.testKey);
    const live = apiKey(account.liveKey);
    const id = await createPlan(test);
    const refusals = [
      await list(test, 'test=false'),
      await getPlan(test, id, '?test=false'),
      await api('POST', `${plansPath}?test=false`, { auth: test, body: planBody() }),
      await api('PUT', `${planPath(id)}?test=false`, { auth: test, body: { name: 'x' } }),
      await api('DELETE', `${planPath(id)}?test=false`, { auth: test }),
      await list(live, 'test=true'),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(403);
      expect(response.json.code).toBe(403);
    }
    expect(await countOf(test)).toBe(1);
    expect(await countOf(live)).toBe(0);
    expect((await getPlan(test, id, '?test=true')).status).toBe(200);
    expect((await list(live, 'test=false')).status).toBe(200);
    const malformed = await list(bearer(await tokenFor(account)), 'test=maybe');
    expect400(malformed);
  });
});
