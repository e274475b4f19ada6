/**
 * Card numbers, CVCs and secrets never reach storage or logs. A stack runs in this process, with
 * debug logging on and every line written to stdout or stderr captured, while cards are paid,
 * declined, challenged and charged directly; then every log line and every item of the table is
 * searched for the card numbers, the CVCs, the API keys and the client secret.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalStack, startLocalStack } from '../../infra/local/stack.ts';
import { createAccount } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { fingerprintInput } from '../../shared/http/idempotency.ts';
import { teeOutput } from '../support/output.ts';

const cards = [
  '4242424242424242',
  '4000000000000002',
  '4000000000003220',
  '4000000000009995',
  '5555555555554444',
];
const cvcs = ['8317', '6492'];
const captured: string[] = [];
let stack: LocalStack;
let state: string;
let restore: () => void;

beforeAll(async () => {
  process.env.LOG_LEVEL = 'DEBUG';
  restore = teeOutput((chunk) => captured.push(chunk));
  state = mkdtempSync(join(tmpdir(), 'cobro-card-data-'));
  stack = await startLocalStack({
    port: 0,
    inMemory: true,
    stateDir: state,
    // Written straight to stdout (vitest reroutes console.log), as `npm start` prints its access log.
    onRequest: (line) => process.stdout.write(`[access] ${line.method} ${line.resource} ${line.status}\n`),
  });
});

afterAll(async () => {
  restore();
  await stack?.stop();
  rmSync(state, { recursive: true, force: true });
});

async function pay(url: string, fields: Record<string, string>) {
  const html = await (await fetch(url)).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
    redirect: 'manual',
  });
  return { status: response.status, html: await response.text() };
}

describe('card data and secrets', () => {
  it('appear in no log line and no stored item, whatever the outcome', async () => {
    const created = await createAccount(makeDeps(), {
      name: 'Careful shop',
      email: `careful-${Date.now()}@example.com`,
    });
    const auth = { Authorization: `Api-Key ${created.testKey}`, 'Content-Type': 'application/json' };
    const year = String(new Date().getUTCFullYear() + 2);
    const newCheckout = async () => {
      const response = await fetch(`${stack.info.api_url}/v1/payments/`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          amount: '12.00',
          description: 'Careful order',
          currency: 'USD',
          items: ['Thing'],
          return_url: 'http://shop.example/done',
        }),
      });
      return ((await response.json()) as { data: { redirect: string } }).data.redirect;
    };
    const card = (number: string, cvc = cvcs[0] as string) => ({
      email: 'buyer@example.com',
      cardholder_name: 'Careful Buyer',
      card_number: number.replace(/(\d{4})/g, '$1 ').trim(),
      exp_month: '07',
      exp_year: year,
      cvc,
    });

    const checkout = await newCheckout();
    expect((await pay(checkout, card('4000000000000002'))).status).toBe(402);
    expect((await pay(checkout, card('4000000000009995', cvcs[1]))).status).toBe(402);
    expect((await pay(checkout, card('4242424242424241'))).status).toBe(400);
    const challenged = await pay(checkout, card('4000000000003220'));
    expect(challenged.status).toBe(200);
    expect(challenged.html).toContain('Complete authentication');
    expect((await pay(checkout, card('4242424242424242'))).status).toBe(303);

    // With an Idempotency-Key, so the request's fingerprint is stored too.
    const legacyFields = {
      amount: '5.00',
      currency: 'usd',
      credit_card_number: '5555555555554444',
      credit_card_security_code_number: cvcs[1] as string,
      exp_month: '7',
      exp_year: year,
    };
    const direct = await fetch(`${stack.info.api_url}/v1/charges/simple/create/`, {
      method: 'POST',
      headers: {
        Authorization: `Api-Key ${created.testKey}`,
        'Content-Type': 'application/x-www-form-urlencoded',
        'Idempotency-Key': 'careful-legacy-1',
      },
      body: new URLSearchParams(legacyFields).toString(),
    });
    expect(direct.status).toBe(201);

    // Webhook signing secrets: shown by creation (whose answer the Idempotency-Key keeps, and
    // replays) and by rotation, stored only sealed.
    const endpointRequest = () =>
      fetch(`${stack.info.api_url}/v1/webhook-endpoints/`, {
        method: 'POST',
        headers: { ...auth, 'Idempotency-Key': 'careful-endpoint-1' },
        body: JSON.stringify({ url: 'http://127.0.0.1:9/hooks' }),
      }).then(async (response) => ({
        status: response.status,
        replayed: response.headers.get('Idempotent-Replayed'),
        data: ((await response.json()) as { data: { id: string; secret: string } }).data,
      }));
    const endpoint = await endpointRequest();
    expect(endpoint.status).toBe(201);
    const replay = await endpointRequest();
    expect(replay.replayed).toBe('true');
    expect(replay.data.secret).toBe(endpoint.data.secret);
    const rotation = await fetch(
      `${stack.info.api_url}/v1/webhook-endpoints/${endpoint.data.id}/rotate-secret/`,
      {
        method: 'POST',
        headers: { ...auth, 'Idempotency-Key': 'careful-rotation-1' },
      },
    );
    expect(rotation.status).toBe(200);
    const rotatedSecret = ((await rotation.json()) as { data: { secret: string } }).data.secret;
    expect(rotatedSecret).toMatch(/^whsec_/);
    await stack.bus.idle();

    const deps = makeDeps();
    const items: unknown[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await deps.db.send(new ScanCommand({ TableName: deps.table, ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const stored = JSON.stringify(items);
    const logs = captured.join('');
    expect(items.length).toBeGreaterThan(5);
    expect(logs).toContain('[access] POST /checkout/');
    const secrets = [
      ...cards,
      ...cards.map((n) => n.slice(0, 12)),
      created.testKey,
      created.liveKey,
      created.clientSecret,
      endpoint.data.secret,
      endpoint.data.secret.slice('whsec_'.length),
      rotatedSecret,
      rotatedSecret.slice('whsec_'.length),
    ];
    for (const secret of secrets) {
      expect(stored, `stored: ${secret.slice(0, 6)}…`).not.toContain(secret);
      expect(logs, `logged: ${secret.slice(0, 6)}…`).not.toContain(secret);
    }
    for (const cvc of cvcs) {
      expect(stored).not.toMatch(new RegExp(`"${cvc}"|:${cvc}[,}]`));
      expect(logs).not.toMatch(new RegExp(`\\b${cvc}\\b`));
    }
    // What may be kept: brand, last 4 and expiry.
    expect(stored).toContain('"last4":"4242"');

    // An attacker who reads the table and knows the code: every stored value that could be a digest
    // is compared with every digest of every CVC the legacy charge could have carried, alone, after
    // the card number, and as the request fingerprint the Idempotency-Key stores.
    const digests = new Set<string>();
    const collect = (value: unknown): void => {
      if (typeof value === 'string' && /^[A-Za-z0-9+/_=-]{22,}$/.test(value)) digests.add(value);
      else if (value && typeof value === 'object') for (const item of Object.values(value)) collect(item);
    };
    collect(items);
    expect(items.some((item) => (item as { entity?: string }).entity === 'idempotency')).toBe(true);
    const candidates = [
      ...Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0')),
      ...Array.from({ length: 10000 }, (_, n) => String(n).padStart(4, '0')),
    ];
    const recovered = candidates.filter((cvc) => {
      const messages = [
        cvc,
        `${legacyFields.credit_card_number}${cvc}`,
        fingerprintInput('POST', '/v1/charges/simple/create/', {
          ...legacyFields,
          credit_card_security_code_number: cvc,
        }),
      ];
      return messages.some((message) =>
        ['sha256', 'sha1', 'md5', 'sha512'].some((algorithm) => {
          const digest = createHash(algorithm).update(message).digest();
          return ['hex', 'base64', 'base64url'].some((encoding) =>
            digests.has(digest.toString(encoding as BufferEncoding)),
          );
        }),
      );
    });
    expect(recovered, 'a CVC recovered from a stored digest').toEqual([]);
  });
});
