/**
 * Query parameters and headers named like object properties (`__proto__`, `constructor`,
 * `toString` …) are names like any other, never 500 (the fuzzer's finding: the local gateway
 * answered 500): in the query, parameters no route documents (400 naming each); as headers, ignored.
 */
import { describe, expect, it } from 'vitest';
import { expectMessage } from '../support/answers.ts';
import { apiUrl, suiteMerchant } from '../support/stack.ts';

/** Names an object has before anyone sets anything on it. */
const objectNames = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf'];

/** Every name once, as a query string. */
const namesQuery = objectNames.map((name) => `${name}=x`).join('&');
/** Every name as a header (an array: an object literal would take `__proto__` as its prototype). */
const namesHeaders = objectNames.map((name) => [name, 'x'] as [string, string]);

/** A request with headers given as name/value pairs, the same name possibly twice. */
async function send(
  method: string,
  path: string,
  headers: [string, string][] = [],
  body?: string,
): Promise<{ status: number; text: string; json: Record<string, unknown> }> {
  const response = await fetch(`${apiUrl}${path}`, { method, headers, ...(body ? { body } : {}) });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = {};
  }
  return { status: response.status, text, json };
}

describe('query parameters and headers named like object properties', () => {
  const merchant = suiteMerchant('hostile-names');

  it('in the query they are undocumented parameters, 400 naming each; as headers /health ignores them', async () => {
    for (const name of objectNames) {
      for (const query of [`${name}=a`, `${name}=a&${name}=b`]) {
        const answer = await send('GET', `/health?${query}`);
        expectMessage(answer, 400, { content: `${name} is not a query parameter of this route.` });
      }
      const answer = await send('GET', '/health', [
        [name, 'a'],
        [name, 'b'],
      ]);
      expect(answer.status, `header ${name}: ${answer.text}`).toBe(200);
    }
  });

  it('an authenticated list names every one of them, in the order sent; as headers they change nothing', async () => {
    const auth: [string, string] = ['Authorization', merchant.auth];
    const expected = objectNames.map((name) => `${name} is not a query parameter of this route.`).join(' ');
    for (const path of ['/v1/auth/api-keys/', '/v1/plans/', '/v1/customers/', '/v1/payments/']) {
      const refused = await send('GET', `${path}?${namesQuery}`, [auth]);
      expectMessage(refused, 400, { content: expected });
      const answer = await send('GET', path, [auth, ...namesHeaders]);
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    }
    // A documented one repeated is still refused for its repetition.
    const repeated = await send('GET', '/v1/plans/?page=1&page=2', [auth]);
    expectMessage(repeated, 400, {
      content: 'page takes one value: repeated or bracketed query parameters are not accepted.',
    });
  });

  it('a POST with them in the query creates nothing (400); with them as headers it creates as it would', async () => {
    const email = `names-${Date.now()}@example.com`;
    const post = (query: string, key: string) =>
      send(
        'POST',
        `/v1/customers/${query}`,
        [
          ['Authorization', merchant.auth],
          ['Content-Type', 'application/json'],
          ['Idempotency-Key', key],
          ...namesHeaders,
        ],
        JSON.stringify({ first_name: 'Ada', last_name: 'Names', email }),
      );
    expectMessage(await post(`?${namesQuery}`, `names-q-${Date.now()}`), 400);
    const created = await post('', `names-${Date.now()}`);
    // 201, not 409: the refused request reserved no e-mail.
    expect(created.status, created.text).toBe(201);
  });

  it('as body fields they are unknown fields (400), in JSON or in a form', async () => {
    const auth: [string, string] = ['Authorization', merchant.auth];
    const fields = { first_name: 'Ada', last_name: 'Names', email: 'body-names@example.com' };
    for (const name of objectNames) {
      const json = `{"${name}":{"polluted":true},${JSON.stringify(fields).slice(1)}`;
      const fromJson = await send(
        'POST',
        '/v1/customers/',
        [auth, ['Content-Type', 'application/json']],
        json,
      );
      expectMessage(fromJson, 400, { content: `${name} is not a field of this request.` });
      const form = `${name}=a&${new URLSearchParams(fields).toString()}`;
      const fromForm = await send(
        'POST',
        '/v1/customers/',
        [auth, ['Content-Type', 'application/x-www-form-urlencoded']],
        form,
      );
      expectMessage(fromForm, 400, { content: `${name} is not a field of this request.` });
    }
  });

  it('as path parameters they are ids like any other: 404', async () => {
    const auth: [string, string] = ['Authorization', merchant.auth];
    for (const name of objectNames) {
      for (const path of [`/v1/plans/${name}/`, `/v1/customers/${name}/`, `/v1/payment-links/${name}/`]) {
        const answer = await send('GET', path, [auth]);
        expect(answer.status, `${path}: ${answer.text}`).toBe(404);
      }
      expect((await send('GET', `/checkout/${name}`)).status).toBe(404);
      expect((await send('GET', `/media/${name}`)).status).toBe(404);
    }
  });
});
