/** PATCH /v1/auth/api-keys/: rotation, its mode rule, its 60-second cutoff, its race and its e-mail. */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalGateway, startGateway } from '../../infra/local/gateway.ts';
import { projectRoot } from '../../infra/local/info.ts';
import { apiKeyPattern } from '../../shared/accounts/credentials.ts';
import { accountKeys } from '../../shared/accounts/keys.ts';
import { findApiKey } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { expectEnvelope } from '../support/answers.ts';
import { waitForMail } from '../support/mail.ts';
import { concurrently } from '../support/race.ts';
import { api, apiKey, basic, bearer, newAccount, tokenFor, useLocalEnvironment } from '../support/stack.ts';
import { storedEventItems, updateStored } from '../support/table.ts';

const keysPath = '/v1/auth/api-keys/';

async function rotate(auth: string, type: unknown) {
  return api('PATCH', keysPath, { auth, body: { type } });
}

describe('rotation', () => {
  it('answers the new key in full once, and the new key works at once', async () => {
    const account = await newAccount();
    const response = await rotate(apiKey(account.liveKey), 'test');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ code: 200, type: 'success', title: expect.any(String) });
    const { type, key, created_at } = response.json.data;
    expect(type).toBe('test');
    expect(key).toMatch(apiKeyPattern);
    expect(key.startsWith('sk_test_')).toBe(true);
    expect(key).not.toBe(account.testKey);
    expect(Date.parse(created_at)).not.toBeNaN();
    const listed = await api('GET', keysPath, { auth: apiKey(key) });
    expect(listed.status).toBe(200);
    expect(listed.json.test.key.endsWith(key.slice(-4))).toBe(true);
    expect(listed.json.test.created_at).toBe(created_at);
  });

  it('a live key or a bearer token may rotate either key', async () => {
    const account = await newAccount();
    const live = await rotate(apiKey(account.liveKey), 'live');
    expect(live.status).toBe(200);
    expect(live.json.data.key.startsWith('sk_live_')).toBe(true);
    expect((await api('GET', keysPath, { auth: apiKey(live.json.data.key) })).status).toBe(200);
    expect((await rotate(apiKey(live.json.data.key), 'test')).status).toBe(200);
    const token = bearer(await tokenFor(account));
    expect((await rotate(token, 'live')).status).toBe(200);
    expect((await rotate(token, 'test')).status).toBe(200);
  });

  it('a test key may rotate only the test key: live is 403 and changes nothing (a leaked test key cannot touch live)', async () => {
    const account = await newAccount();
    for (const auth of [apiKey(account.testKey), basic(account.testKey)]) {
      const refused = await rotate(auth, 'live');
      expectEnvelope(refused, 403, { content: expect.stringContaining('test key'), type: 'error' });
      expect(refused.text).not.toMatch(/sk_live_/);
    }
    // The live key still works and is the one the account records.
    const listed = await api('GET', keysPath, { auth: apiKey(account.liveKey) });
    expect(listed.status).toBe(200);
    expect(listed.json.live.key.endsWith(account.liveKey.slice(-4))).toBe(true);
    expect(await findApiKey(makeDeps(), account.liveKey)).toEqual({
      developerId: account.developerId,
      mode: 'live',
    });
    // The test key may still rotate itself.
    const own = await rotate(apiKey(account.testKey), 'test');
    expect(own.status).toBe(200);
    expect(own.json.data.key.startsWith('sk_test_')).toBe(true);
  });

  it('a body without a valid type is 400 with the envelope nested in message, and changes nothing', async () => {
    const account = await newAccount();
    for (const body of [{ type: 'prod' }, {}, { type: ['test'] }]) {
      const response = await api('PATCH', keysPath, { auth: apiKey(account.liveKey), body });
      expect(response.status).toBe(400);
      expect(response.json).toEqual({
        message: { code: 400, title: expect.any(String), content: expect.any(String), type: 'error' },
      });
    }
    const empty = await api('PATCH', keysPath, { auth: apiKey(account.liveKey) });
    expect(empty.status).toBe(400);
    expect((await api('GET', keysPath, { auth: apiKey(account.testKey) })).status).toBe(200);
  });

  it('takes a form-encoded body', async () => {
    const account = await newAccount();
    const response = await api('PATCH', keysPath, {
      auth: apiKey(account.liveKey),
      rawBody: 'type=test',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(response.status).toBe(200);
    expect(response.json.data.type).toBe('test');
  });

  it('20 concurrent rotations leave exactly one valid key, the one recorded on the account', async () => {
    const account = await newAccount();
    const auth = apiKey(account.liveKey);
    const answers = await concurrently(20, () => rotate(auth, 'test'));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    const issued = answers
      .filter((answer) => answer.status === 200)
      .map((answer) => answer.json.data.key as string);
    expect(issued.length).toBeGreaterThanOrEqual(1);
    useLocalEnvironment();
    const deps = makeDeps();
    const valid = [];
    for (const key of [account.testKey, ...issued]) if (await findApiKey(deps, key)) valid.push(key);
    expect(valid).toHaveLength(1);
    const listed = await api('GET', keysPath, { auth });
    expect(listed.json.test.key.endsWith((valid[0] as string).slice(-4))).toBe(true);
  });

  it('e-mails the account owner through the event bus and SES', async () => {
    const account = await newAccount();
    expect((await rotate(apiKey(account.liveKey), 'live')).status).toBe(200);
    const mail = await waitForMail(account.email);
    expect(mail?.subject).toBe('Your cobro live API key was rotated');
    expect(mail?.body.text).toContain(`account ${account.developerId}`);
    expect(mail?.body.text).not.toMatch(/sk_live_[A-Za-z0-9]{32}/);
  });
});

describe('the api_key.rotated event', () => {
  it('is stored in the rotation transaction, masked, before it is sent', async () => {
    const account = await newAccount();
    const response = await rotate(apiKey(account.liveKey), 'test');
    expect(response.status).toBe(200);
    const stored = await storedEventItems(account.developerId, 'test');
    const events = stored.map((item) => item.detail);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'api_key.rotated',
      developer_id: account.developerId,
      test: true,
      data: { type: 'test', created_at: response.json.data.created_at },
    });
    const newKey: string = response.json.data.key;
    expect(events[0].data.key.endsWith(newKey.slice(-4))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(newKey);
  });
});

describe('an account without keys', () => {
  it('answers 404 of type warning to GET and PATCH', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    await updateStored(accountKeys.account(account.developerId), {
      UpdateExpression: 'REMOVE #keys',
      ExpressionAttributeNames: { '#keys': 'keys' },
    });
    for (const response of [await api('GET', keysPath, { auth }), await rotate(auth, 'test')]) {
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ code: 404, type: 'warning', title: 'No API keys' });
    }
  });
});

describe('the authorizer cache (60 s, as API Gateway)', () => {
  let gateway: LocalGateway;
  let now = Date.now();

  beforeAll(async () => {
    useLocalEnvironment();
    gateway = await startGateway({ root: projectRoot, port: 0, now: () => now });
  });
  afterAll(() => gateway.close());

  const get = (key: string) =>
    fetch(`${gateway.url}${keysPath}`, { headers: { Authorization: `Api-Key ${key}` } }).then(async (r) => ({
      status: r.status,
      json: (await r.json()) as Record<string, unknown>,
    }));

  it('a rotated key keeps working while cached and stops within 60 seconds', async () => {
    const account = await newAccount();
    expect((await get(account.testKey)).status).toBe(200); // cached from here
    const rotated = await fetch(`${gateway.url}${keysPath}`, {
      method: 'PATCH',
      headers: { Authorization: `Api-Key ${account.liveKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'test' }),
    });
    const newKey = ((await rotated.json()) as { data: { key: string } }).data.key;
    now += 59_000;
    expect((await get(account.testKey)).status).toBe(200);
    now += 2_000;
    const expired = await get(account.testKey);
    expect(expired.status).toBe(401);
    expect(expired.json).toEqual({ detail: 'Invalid API key.' });
    expect((await get(newKey)).status).toBe(200);
  });
});
