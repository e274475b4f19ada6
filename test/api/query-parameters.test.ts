/**
 * A query parameter a route does not document is 400 naming it, on every route of the OpenAPI
 * document, before anything is read or changed; `test` stays accepted everywhere; a route's
 * documented parameters still work. The document lists exactly what a request may send, so the
 * check is driven by it: the two cannot disagree without this failing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectMessage } from '../support/answers.ts';
import { type Json, operationsOf } from '../support/fuzz.ts';
import { api, apiKey, newAccount, type TestAccount } from '../support/stack.ts';

let doc: Json;
let account: TestAccount;
let auth: string;

beforeAll(async () => {
  const served = await api('GET', '/openapi.json');
  expect(served.status).toBe(200);
  doc = served.json;
  account = await newAccount('undocumented-query');
  auth = apiKey(account.testKey);
});

const undocumented = 'at_period_end';
const named = (field: string) => `${field} is not a query parameter of this route.`;

/** A path of the document with each parameter filled: the check comes before any lookup. */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, 'id_that_does_not_exist');

describe('an undocumented query parameter', () => {
  it('is 400 naming it on every route of the document, with or without credentials', async () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const { method, path, op } of operations) {
      const documented = new Set<string>(
        ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query').map((p) => p.name as string),
      );
      expect(documented.has(undocumented), `${method} ${path} documents ${undocumented}`).toBe(false);
      const answer = await api(method, `${concrete(path)}?${undocumented}=true`, {
        auth,
        // A body the route would take is beside the point: the query is refused first.
        ...(method === 'POST' || method === 'PUT' || method === 'PATCH' ? { body: {} } : {}),
      });
      const json = answer.json?.message ?? answer.json;
      const ok =
        answer.status === 400 &&
        (json ? json.content === named(undocumented) : answer.text.includes(undocumented));
      if (!ok) wrong.push(`${method} ${path}: ${answer.status} ${answer.text.slice(0, 160)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('names every one that came, in Spanish too, and leaves a subscription it would have changed as it was', async () => {
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Basic', amount: '10.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    const created = await api('POST', '/v1/subscriptions', {
      auth,
      body: { plan_id: plan.json.data.id, return_url: 'https://shop.example/back' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.subscription_id as string;
    const before = await api('GET', `/v1/subscriptions/${id}`, { auth });

    const cancel = await api('DELETE', `/v1/subscriptions/${id}?at_period_end=true&prorate=no`, { auth });
    expectMessage(cancel, 400);
    expect(cancel.text).toContain('at_period_end is not a query parameter of this route.');
    expect(cancel.text).toContain('prorate is not a query parameter of this route.');
    const after = await api('GET', `/v1/subscriptions/${id}`, { auth });
    expect(after.json).toEqual(before.json);

    const spanish = await api('GET', '/v1/payments/?customer=cus_1', {
      auth,
      headers: { 'Accept-Language': 'es' },
    });
    expectMessage(spanish, 400);
    expect(spanish.text).toContain('customer no es un parámetro de consulta de esta ruta.');
  });

  it('leaves `test` accepted everywhere, and the documented ones working', async () => {
    expect((await api('GET', '/health?test=true')).status).toBe(200);
    expect((await api('GET', '/v1/payments/?test=true&limit=5&status=succeeded', { auth })).status).toBe(200);
    expect((await api('GET', '/v1/plans/?page=1&page_size=5&status=active', { auth })).status).toBe(200);
    expect((await api('GET', '/v1/refunds/?charge_id=ch_x', { auth })).status).toBe(200);
    // A path no route has is still 404, whatever its query.
    expect((await api('GET', `/nowhere?${undocumented}=1`)).status).toBe(404);
  });
});
