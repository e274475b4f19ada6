/**
 * `npm run smoke` as an operator runs it after a deploy, here against the test stack: every check
 * passes on a healthy stack; a check that fails (a receiver nothing forwards to, a wrong key) exits
 * 1 with its FAIL line; and whatever happened, what the run made is gone afterwards.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { approvedTestCard } from '../../bin/smoke/checks.ts';
import { projectRoot } from '../../infra/local/info.ts';
import { testCards } from '../../shared/acquirer/simulated.ts';
import { api, apiKey, apiUrl, newAccount, type TestAccount } from '../support/stack.ts';
import { connectStripe } from '../support/stripe.ts';

const run = promisify(execFile);

/** `npm run -s smoke -- …args` from the project's root; answers its exit code and output. */
async function smoke(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', 'smoke', '--', '--url', apiUrl, ...args], {
      cwd: projectRoot,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The id a check's line names (the first match of `pattern` on the line of `step`). */
function idOn(stdout: string, step: string, pattern: RegExp): string {
  const line = stdout.split('\n').find((text) => text.slice(6).startsWith(step));
  const id = line?.match(pattern)?.[0];
  expect(id, `no id on the "${step}" line:\n${stdout}`).toBeDefined();
  return id as string;
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** A loopback port with nothing listening on it: a receiver that never answers. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let account: TestAccount;
beforeAll(async () => {
  account = await newAccount('smoke');
});

describe('npm run smoke', () => {
  it('passes every check on a healthy stack, prints no secret, and leaves nothing behind', async () => {
    const result = await smoke('--key', account.testKey);
    expect(result.code, `${result.stdout}${result.stderr}`).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const steps = lines.slice(0, -1);
    expect(steps.map((line) => line.slice(0, 6).trim())).toEqual(steps.map(() => 'ok'));
    expect(steps.map((line) => line.slice(6, 24).trim())).toEqual([
      'health',
      'auth',
      'auth: wrong key',
      'plan',
      'webhook endpoint',
      'payment',
      'checkout page',
      'checkout payment',
      'webhook delivery',
      'clean-up: endpoint',
      'clean-up: refund',
      'clean-up: customer',
      'clean-up: plan',
    ]);
    for (const line of steps) expect(line).toMatch(/\(\d+ ms\)$/);
    expect(lines.at(-1)).toMatch(/^all 13 checks passed in \d+ ms$/);
    expect(result.stdout).toMatch(
      /webhook delivery\s+payment\.succeeded evt_\w+ received .* signature verified/,
    );
    expect(result.stdout).not.toContain(account.testKey);
    expect(result.stdout).not.toMatch(/whsec_|\/checkout\//);

    const auth = apiKey(account.testKey);
    const plan = idOn(result.stdout, 'plan', uuid);
    const endpoint = idOn(result.stdout, 'webhook endpoint', /we_\w+/);
    const customer = idOn(result.stdout, 'clean-up: customer', uuid);
    const charge = idOn(result.stdout, 'checkout payment', /ch_\w+/);
    expect((await api('GET', `/v1/plans/${plan}/`, { auth })).status).toBe(404);
    expect((await api('GET', `/v1/webhook-endpoints/${endpoint}/`, { auth })).status).toBe(404);
    expect((await api('GET', `/v1/customers/${customer}/`, { auth })).status).toBe(404);
    const refunded = await api('GET', `/v1/charges/${charge}/`, { auth });
    expect(refunded.json).toMatchObject({ test: true, amount: 1, amount_refunded: 1 });
  });

  it('with --receiver, registers that URL and verifies what it forwards to --listen', async () => {
    const listen = await closedPort();
    let forwarded = 0;
    // The operator's public URL (a tunnel, a proxy) that hands each request to the smoke's port.
    const tunnel = createHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        forwarded += 1;
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter(
            ([name]) => name.startsWith('webhook-') || name === 'content-type',
          ),
        ) as Record<string, string>;
        const answer = await fetch(`http://127.0.0.1:${listen}${request.url}`, {
          method: 'POST',
          headers,
          body: Buffer.concat(chunks),
        });
        response.writeHead(answer.status).end(await answer.text());
      });
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    const publicUrl = `http://127.0.0.1:${(tunnel.address() as { port: number }).port}/public/hook`;
    try {
      const result = await smoke(
        '--key',
        account.testKey,
        '--receiver',
        publicUrl,
        '--listen',
        String(listen),
      );
      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).toContain(`at ${publicUrl} (listening on 127.0.0.1:${listen})`);
      expect(result.stdout).toMatch(
        /^ok {4}webhook delivery +payment\.succeeded evt_\w+ .* signature verified/m,
      );
      expect(forwarded).toBeGreaterThanOrEqual(1);
    } finally {
      tunnel.closeAllConnections();
      await new Promise<void>((resolve) => tunnel.close(() => resolve()));
    }
  });

  it('fails the webhook check when nothing reaches its receiver, exits 1, and still cleans up', async () => {
    const nowhere = `http://127.0.0.1:${await closedPort()}/hook`;
    const result = await smoke(
      '--key',
      account.testKey,
      '--receiver',
      nowhere,
      '--listen',
      '0',
      '--timeout',
      '3',
    );
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).toMatch(/^FAIL {2}webhook delivery +no verified delivery within 3 s; cobro's /m);
    const failed = result.stdout.split('\n').filter((line) => /^(FAIL|skip)/.test(line));
    expect(failed).toHaveLength(1);
    expect(result.stdout).toMatch(/^ok {4}clean-up: plan/m);
    expect(result.stdout).toMatch(/^1 of 13 checks failed \(/m);

    const plan = idOn(result.stdout, 'plan', uuid);
    const endpoint = idOn(result.stdout, 'webhook endpoint', /we_\w+/);
    const auth = apiKey(account.testKey);
    expect((await api('GET', `/v1/plans/${plan}/`, { auth })).status).toBe(404);
    expect((await api('GET', `/v1/webhook-endpoints/${endpoint}/`, { auth })).status).toBe(404);
  });

  it('refuses a wrong key with a FAIL of the auth check and runs nothing that needs it (--json)', async () => {
    const wrong = `sk_test_${'x'.repeat(32)}`;
    const result = await smoke('--key', wrong, '--json');
    expect(result.code, result.stdout).toBe(1);
    expect(result.stdout).not.toContain(wrong);
    const report = JSON.parse(result.stdout);
    expect(report.ok).toBe(false);
    const outcomes = Object.fromEntries(
      report.steps.map((step: { step: string; outcome: string }) => [step.step, step.outcome]),
    );
    expect(outcomes).toEqual({
      health: 'ok',
      auth: 'FAIL',
      'auth: wrong key': 'ok',
      plan: 'skip',
      'webhook endpoint': 'skip',
      payment: 'skip',
      'checkout page': 'skip',
      'checkout payment': 'skip',
      'webhook delivery': 'skip',
    });
    expect(report.steps[1].detail).toContain('401');
    expect(report.created).toEqual({});
    // In text, the summary tells the failure from the checks it left undone.
    const text = await smoke('--key', wrong);
    expect(text.stdout).toMatch(/^1 of 9 checks failed, 6 skipped after them \(/m);
  });

  it('refuses a live key before calling anything (exit 2)', async () => {
    const result = await smoke('--key', account.liveKey);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--key must be a test key');
    expect(result.stdout).toBe('');
  });

  it("skips the payment when test mode takes cards on Stripe's page, saying so, and exits 0", async () => {
    const merchant = await newAccount('smoke-stripe');
    await connectStripe(merchant, 'test');
    const result = await smoke('--key', merchant.testKey);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.find((line) => line.includes('checkout payment'))).toMatch(
      /^skip .*checkout payment.*test mode takes cards on Stripe's page/,
    );
    expect(lines.find((line) => line.includes('webhook delivery'))).toMatch(/^skip /);
    expect(lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
    // Nothing was paid: the payment stays unpaid on its page.
    const paymentId = idOn(result.stdout, 'payment', /pay_[A-Za-z0-9]+/);
    const payment = await api('GET', `/v1/payments/${paymentId}`, { auth: apiKey(merchant.testKey) });
    expect(payment.json).toMatchObject({ id: paymentId, charge_id: null });
    expect(payment.json.status).not.toBe('completed');
  });

  it('pays with the simulated acquirer’s approved card and loads nothing of cobro’s code', () => {
    expect(approvedTestCard).toBe(testCards.approved);
    // It runs against a deployed stage from an operator's machine: HTTP, node's modules, standardwebhooks.
    const cruise = spawnSync(
      join(projectRoot, 'node_modules/.bin/depcruise'),
      ['bin/smoke.ts', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      { cwd: projectRoot, encoding: 'utf8' },
    );
    expect(cruise.status, cruise.stderr).toBe(0);
    const modules = (JSON.parse(cruise.stdout).modules as { source: string; coreModule?: boolean }[])
      .filter((module) => !module.coreModule)
      .map((module) => module.source);
    expect(modules).toContain('bin/smoke/receiver.ts');
    expect(modules.filter((source) => !source.startsWith('bin/smoke'))).toEqual([]);
  });
});
