/**
 * A fuzz of every route of the OpenAPI document the stack serves (test/support/fuzz.ts): whatever
 * is sent, no answer is a 500 (or any 5xx), and a small request never gets an answer over 64 KB.
 * `FUZZ_RUNS` sets the requests per operation (default 40, about 2,400 in all); a failure prints
 * fast-check's seed and the shrunk request, so it can be replayed.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { type FuzzRequest, type Json, operationsOf, requestsFor } from '../support/fuzz.ts';
import { api, apiKey, apiUrl, newAccount, type TestAccount } from '../support/stack.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 40);
const maxAnswer = 64 * 1024;

let doc: Json;
let account: TestAccount;
/** PATCH /v1/auth/api-keys/ may rotate the key: it gets an account of its own. */
let rotating: TestAccount;

beforeAll(async () => {
  const served = await api('GET', '/openapi.json');
  expect(served.status).toBe(200);
  doc = served.json;
  [account, rotating] = await Promise.all([newAccount('fuzz'), newAccount('fuzz-rotate')]);
});

async function send(request: FuzzRequest) {
  const response = await fetch(`${apiUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    ...(request.body !== undefined ? { body: request.body } : {}),
  });
  const answer = Buffer.from(await response.arrayBuffer());
  return { status: response.status, size: answer.length, text: answer.subarray(0, 300).toString() };
}

describe('every route of the OpenAPI document, fuzzed', () => {
  it('answers no 5xx and nothing over 64 KB to a small request', async () => {
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(50);
    let sent = 0;
    const statuses = new Map<number, number>();
    // Every operation is fuzzed even when an earlier one fails: the findings are listed together.
    const findings: string[] = [];
    for (const operation of operations) {
      const owner =
        operation.method === 'PATCH' && operation.path === '/v1/auth/api-keys/' ? rotating : account;
      const result = await fc.check(
        fc.asyncProperty(requestsFor(doc, operation, apiKey(owner.testKey)), async (request) => {
          const answer = await send(request);
          sent += 1;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const what = `${request.method} ${request.path.slice(0, 200)} ${JSON.stringify(request.headers)} ${
            request.body?.slice(0, 200) ?? ''
          } answered ${answer.status} (${answer.size} bytes): ${answer.text}`;
          // Requests are at most ~20 KB; lists of a fresh account are small. The OpenAPI document is
          // the one exception: the same fixed description whoever asks, not an answer a request inflates.
          const bounded = operation.path === '/openapi.json' || answer.size <= maxAnswer;
          if (answer.status >= 500 || !bounded) throw new Error(what);
        }),
        { numRuns: runs },
      );
      if (result.failed)
        findings.push(
          `${operation.method} ${operation.path} (seed ${result.seed}): ${(result.errorInstance as Error)?.message}`,
        );
    }
    expect(findings).toEqual([]);
    // The fuzz reaches past the door: most requests are authorized, and many are valid enough to succeed.
    // Since every route refuses a query parameter it does not document, the requests carrying a
    // name like `__proto__` end at 400 too: about 5 % of them succeed (a run of 4,360 had 207 to 226
    // 2xx answers), so the floor is one in 30.
    const count = (test: (status: number) => boolean) =>
      [...statuses].filter(([status]) => test(status)).reduce((sum, [, n]) => sum + n, 0);
    expect(count((status) => status === 401)).toBeLessThan(sent / 3);
    expect(count((status) => status >= 200 && status < 300)).toBeGreaterThan(sent / 30);
    expect(count((status) => status === 400)).toBeGreaterThan(sent / 10);
    expect(sent).toBeGreaterThanOrEqual(operations.length * runs - findings.length * runs);
  }, 600_000);
});
