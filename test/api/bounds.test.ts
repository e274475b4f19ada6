/**
 * Small requests get small answers, deep bodies a clear 400, and query parameters one value each:
 * findings of the security review, each reproduced here through the local gateway.
 */
import { describe, expect, it } from 'vitest';
import { maxListedProblems } from '../../shared/core/validation.ts';
import { expectEnvelope } from '../support/answers.ts';
import { api, apiKey, basic, bearer, newAccount, tokenFor } from '../support/stack.ts';

const payment = {
  amount: '10.00',
  description: 'Bounded',
  currency: 'USD',
  items: ['One'],
  return_url: 'http://shop.example/done',
};

const json = { 'Content-Type': 'application/json' };

describe('validation answers stay small', () => {
  it('a 200 KB body with 100,000 bad items answers the first 20 problems and how many more', async () => {
    const account = await newAccount();
    const rawBody = JSON.stringify({ ...payment, items: Array.from({ length: 100_000 }, () => 1) });
    expect(rawBody.length).toBeGreaterThan(190_000);
    const response = await api('POST', '/v1/payments/', {
      auth: basic(account.testKey),
      rawBody,
      headers: json,
    });
    expect(response.status).toBe(400);
    expect(response.text.length).toBeLessThan(8_000);
    expect(response.json.data.errors).toHaveLength(maxListedProblems);
    expect(response.json.data.errors[0]).toEqual({ field: 'items.0', message: 'items.0 must be text.' });
    expect(response.json.data.more).toBeGreaterThanOrEqual(100_000 - maxListedProblems);
    expect(response.json.content).toMatch(/and \d+ more problems\.$/);
  });

  it('a field name of 100 KB is cut in the answer', async () => {
    const account = await newAccount();
    const response = await api('POST', '/v1/payments/', {
      auth: basic(account.testKey),
      body: { ...payment, ['x'.repeat(100_000)]: 1 },
    });
    expect(response.status).toBe(400);
    expect(response.text.length).toBeLessThan(2_000);
    expect(response.json.data.errors[0].field).toBe(`${'x'.repeat(100)}…`);
  });

  it('Spanish answers are bounded the same way', async () => {
    const account = await newAccount();
    const rawBody = JSON.stringify({ ...payment, items: Array.from({ length: 1000 }, () => 1) });
    const response = await api('POST', '/v1/payments/', {
      auth: basic(account.testKey),
      rawBody,
      headers: { ...json, 'Accept-Language': 'es' },
    });
    expect(response.status).toBe(400);
    expect(response.json.data.errors).toHaveLength(maxListedProblems);
    expect(response.json.content).toMatch(/y \d+ problemas más\.$/);
  });
});

describe('deeply nested bodies', () => {
  const deepForm = `name${'[a]'.repeat(5000)}=1`;
  const deepJson = `{"name":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };

  it('are 400 on an authenticated route, form or JSON, and create nothing', async () => {
    const account = await newAccount();
    const auth = apiKey(account.testKey);
    for (const request of [
      { rawBody: deepForm, headers: form },
      { rawBody: deepJson, headers: { 'Content-Type': 'application/json' } },
      // Percent-encoded brackets nest all the same.
      { rawBody: `name${'%5Ba%5D'.repeat(5000)}=1`, headers: form },
    ]) {
      expectEnvelope(await api('POST', '/v1/plans/', { auth, ...request }), 400, {
        title: 'Body nested too deeply',
        content: 'The request body nests more than 32 levels deep.',
        type: 'error',
      });
    }
    expect((await api('GET', '/v1/plans/', { auth })).json.count).toBe(0);
  });

  it('are 400 on the public checkout and the token endpoint', async () => {
    const account = await newAccount();
    const created = await api('POST', '/v1/payments/', { auth: basic(account.testKey), body: payment });
    expect(created.status).toBe(202);
    const checkoutPath = new URL(created.json.data.redirect).pathname;
    const checkout = await api('POST', checkoutPath, { rawBody: deepForm, headers: form });
    expect(checkout.status).toBe(400);
    expect(checkout.json.title).toBe('Body nested too deeply');
    // The session is untouched: its page still offers the form.
    const page = await api('GET', checkoutPath);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="card_number"');

    for (const rawBody of [deepForm, deepJson]) {
      const token = await api('POST', '/authentication/token/', { rawBody, headers: form });
      expect(token.status).toBe(400);
      expect(token.json.error.code).toBe('invalid_request');
    }
  });

  it('32 levels are still read', async () => {
    const account = await newAccount();
    const body = `{"type":"test","x":${'['.repeat(31)}${']'.repeat(31)}}`;
    const response = await api('PATCH', '/v1/auth/api-keys/', {
      auth: apiKey(account.liveKey),
      rawBody: body,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(200);
  });
});

describe('query parameters take one value', () => {
  it('a bracketed parameter is 400 naming it, not silently ignored', async () => {
    const account = await newAccount();
    const response = await api('GET', '/v1/refunds/?charge_id[]=ch_x', { auth: basic(account.testKey) });
    expect(response.status).toBe(400);
    expect(response.json.data.errors).toEqual([
      { field: 'charge_id[]', message: expect.stringContaining('one value') },
    ]);
  });

  it('a bearer request with ?test[]=true is 400 and never acts on live data', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    const plan = { name: 'Live only', currency: 'USD', amount: '5.00', interval: 'month', interval_count: 1 };
    expect((await api('POST', '/v1/plans/', { auth, body: plan })).status).toBe(201);
    for (const path of ['/v1/plans/?test[]=true', '/v1/plans/?test%5B%5D=true', '/v1/plans/?test[0]=true']) {
      const response = await api('GET', path, { auth });
      expect(response.status, path).toBe(400);
      expect(response.text).not.toContain('Live only');
    }
    // A POST is refused before anything is written.
    const refused = await api('POST', '/v1/plans/?test[]=true', { auth, body: plan });
    expect(refused.status).toBe(400);
    expect((await api('GET', '/v1/plans/', { auth })).json.count).toBe(1);
  });

  it('a repeated parameter is 400', async () => {
    const account = await newAccount();
    const auth = basic(account.testKey);
    for (const path of ['/v1/plans/?test=true&test=false', '/v1/plans/?page=1&page=2']) {
      const response = await api('GET', path, { auth });
      expect(response.status, path).toBe(400);
      expect(response.json.type).toBe('error');
    }
    expect((await api('GET', '/v1/plans/?test=true&page=1', { auth })).status).toBe(200);
  });
});
