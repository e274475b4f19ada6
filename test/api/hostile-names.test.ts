/**
 * Query parameters and headers named like object properties (`__proto__`, `constructor`,
 * `toString` …) are names like any other: a request carrying them answers what it would answer
 * without them, never 500 (the fuzzer's finding: the local gateway answered 500).
 */
import { describe, expect, it } from 'vitest';
import { expectMessage } from '../support/answers.ts';
import { apiKey, apiUrl, suiteMerchant } from '../support/stack.ts';

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

  it('GET /health answers 200 with any of them, once or repeated, in the query or as headers', async () => {
    for (const name of objectNames) {
      for (const query of [`${name}=a`, `${name}=a&${name}=b`, `${name}[x]=a`]) {
        const answer = await send('GET', `/health?${query}`);
        expect(answer.status, `${query}: ${answer.text}`).toBe(200);
      }
      const answer = await send('GET', '/health', [
        [name, 'a'],
        [name, 'b'],
      ]);
      expect(answer.status, `header ${name}: ${answer.text}`).toBe(200);
    }
  });

  it('an authenticated list answers 200 with them, and 400 naming the one that is repeated', async () => {
    const auth: [string, string] = ['Authorization', merchant.auth];
    for (const path of ['/v1/auth/api-keys/', '/v1/plans/', '/v1/customers/', '/v1/payments/']) {
      const answer = await send('GET', `${path}?${namesQuery}`, [auth, ...namesHeaders]);
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    }
    for (const name of objectNames) {
      const answer = await send('GET', `/v1/auth/api-keys/?${name}=a&${name}=b`, [auth]);
      expectMessage(answer, 400, {
        content: `${name} takes one value: repeated or bracketed query parameters are not accepted.`,
      });
    }
  });

  it('without credentials they answer 401, with a wrong key 403 as ever', async () => {
    const none = await send('GET', `/v1/auth/api-keys/?${namesQuery}`, namesHeaders);
    expect(none.status, none.text).toBe(401);
    const wrong = await send('GET', `/v1/auth/api-keys/?${namesQuery}`, [
      ['Authorization', apiKey('sk_test_notakeynotakeynotakeynotakey')],
      ...namesHeaders,
    ]);
    expect([401, 403], wrong.text).toContain(wrong.status);
  });

  it('a POST with them (and an Idempotency-Key) creates as it would without them', async () => {
    const email = `names-${Date.now()}@example.com`;
    const answer = await send(
      'POST',
      `/v1/customers/?${namesQuery}`,
      [
        ['Authorization', merchant.auth],
        ['Content-Type', 'application/json'],
        ['Idempotency-Key', `names-${Date.now()}`],
        ...namesHeaders,
      ],
      JSON.stringify({ first_name: 'Ada', last_name: 'Names', email }),
    );
    expect(answer.status, answer.text).toBe(201);
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
