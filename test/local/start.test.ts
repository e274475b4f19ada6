/** `npm start` as a user meets it: a busy port, a clean Ctrl-C, data kept across restarts. */

import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { portIsFree } from '../../infra/local/ports.ts';
import { defaultPorts } from '../../infra/local/stack.ts';
import { eventually } from '../support/eventually.ts';
import { stopCobro } from '../support/global-setup.ts';
import { outputOnce, pidsMentioning, readInfo, stackHarness } from './harness.ts';

const { start, startIn, tempDir } = stackHarness();

describe('npm start', () => {
  it('stopped while still starting, leaves no DynamoDB Local behind', { timeout: 60_000 }, async () => {
    const stateDir = tempDir();
    const started = startIn(stateDir);
    started.ready.catch(() => undefined); // it is stopped before it is ready
    // Wait until Java is up (it runs with the state folder on its command line), then interrupt.
    await eventually(
      'DynamoDB Local to start',
      async () => (pidsMentioning(stateDir, 'DynamoDBLocal').length > 0 ? true : undefined),
      { timeout: 20_000, interval: 50 },
    );
    await stopCobro(started.child);
    // Java does not outlive the start (stopped with it, or killed as it exits); nothing else stops it.
    await eventually(
      'DynamoDB Local to be gone',
      async () => (pidsMentioning(stateDir, 'DynamoDBLocal').length === 0 ? true : undefined),
      10_000,
    );
  });

  // A whole stack starts: as long as the other tests here that wait for one to be ready.
  it('takes its state folder from COBRO_STATE_DIR when --state-dir is not given', {
    timeout: 120_000,
  }, async () => {
    const stateDir = tempDir();
    const started = start(['--in-memory', '--port', '0', '--quiet'], {
      ...process.env,
      COBRO_STATE_DIR: stateDir,
    });
    const url = await started.ready;
    expect(readInfo(stateDir)).toMatchObject({ api_url: url, pid: started.child.pid });
  });

  it('logs each request by its route template, never by a path that carries a token', {
    timeout: 120_000,
  }, async () => {
    const stateDir = tempDir();
    const started = start(['--in-memory', '--port', '0', '--state-dir', stateDir]);
    const url = await started.ready;
    const testKey = readInfo(stateDir).demo?.test_key;
    const payment = await fetch(`${url}/v1/payments/`, {
      method: 'POST',
      headers: { Authorization: `Api-Key ${testKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        amount: '25.00',
        description: 'Logged order',
        currency: 'USD',
        items: ['Tea'],
        return_url: 'http://shop.example/done',
      }),
    });
    expect(payment.status).toBe(202);
    const checkout = new URL(((await payment.json()) as { data: { redirect: string } }).data.redirect);
    const checkoutToken = checkout.pathname.split('/').at(-1) as string;
    expect(checkoutToken.length).toBeGreaterThan(16);
    // Token-looking values where the portal, a receipt, an unknown path and a query would carry one.
    const tokens = [checkoutToken, ...Array.from({ length: 4 }, () => randomBytes(24).toString('base64url'))];
    const [, portal, receipt, unrouted, query] = tokens as [string, string, string, string, string];
    const requests: [method: string, path: string, logged: string][] = [
      ['GET', checkout.pathname, 'GET /checkout/{token} 200'],
      ['DELETE', checkout.pathname, 'DELETE /checkout/{token} 405'],
      ['GET', `/portal/${portal}`, 'GET /portal/{token} '],
      ['GET', `/receipts/${receipt}?download=${query}`, 'GET /receipts/{token} '],
      ['GET', `/${unrouted}/more`, 'GET /{proxy+} 404'],
    ];
    for (const [method, path] of requests) await fetch(`${url}${path}`, { method });
    const last = requests.at(-1)?.[2] as string;
    const output = await outputOnce(started, last);
    for (const [, , logged] of requests) expect(output).toContain(logged);
    for (const token of tokens) expect(output).not.toContain(token);
  });

  it('says plainly when Java is missing', async () => {
    const withoutJava = { ...process.env, PATH: dirname(process.execPath) };
    const started = start(['--in-memory', '--port', '0', '--state-dir', tempDir()], withoutJava);
    await expect(started.ready).rejects.toThrow(/DynamoDB Local needs Java 17/);
    expect(started.output()).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('says clearly when the API port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const address = blocker.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const started = start(['--in-memory', '--port', String(port), '--state-dir', tempDir()]);
    await expect(started.ready).rejects.toThrow(new RegExp(`port ${port} is already in use`));
    expect(started.child.exitCode).toBe(1);
    blocker.close();
  });

  it('beside another stack on the default ports, comes up on other ports and answers /health', {
    timeout: 120_000,
  }, async () => {
    // Plain sockets on every default port still free (a neighbour may hold the others already).
    const held = new Map<string, Server>();
    for (const [part, port] of Object.entries(defaultPorts)) {
      const socket = createServer();
      const bound = await new Promise<boolean>((resolve) => {
        socket.once('error', () => resolve(false));
        socket.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (bound) held.set(part, socket);
    }
    try {
      const { PORT: _named, ...withoutPort } = process.env; // no port named: the API may move too
      const stateDir = tempDir();
      const started = start(['--in-memory', '--quiet', '--state-dir', stateDir], withoutPort);
      const url = await started.ready;
      const { ports } = readInfo(stateDir);
      for (const part of held.keys())
        expect(ports[part as keyof typeof ports], part).not.toBe(
          defaultPorts[part as keyof typeof defaultPorts],
        );
      expect(Number(new URL(url).port)).toBe(ports.api);
      expect((await fetch(`${url}/health`)).status).toBe(200);
      // 3000 is held, by this test or by a neighbour: the API moved and says so.
      const notice = `port 3000 is in use: the API listens on ${url} instead`;
      expect(await outputOnce(started, notice)).toContain(notice);
    } finally {
      for (const socket of held.values()) socket.close();
    }
  });

  it('keeps data across a restart and stops everything, Java included, on Ctrl-C', {
    timeout: 240_000,
  }, async () => {
    const stateDir = tempDir();
    const first = startIn(stateDir);
    const url = await first.ready;
    expect(first.output()).toMatch(/test key\s+sk_test_[A-Za-z0-9]{32}/);
    const info = readInfo(stateDir);
    expect(info.api_url).toBe(url);
    expect(info.demo?.test_key).toMatch(/^sk_test_/);
    expect(await stopCobro(first.child)).toBe(0);
    for (const port of Object.values(info.ports)) expect(await portIsFree(port)).toBe(true);

    const second = startIn(stateDir);
    const secondUrl = await second.ready;
    expect(second.output()).not.toContain('created now');
    const response = await fetch(`${secondUrl}/v1/auth/api-keys/`, {
      headers: { Authorization: `Api-Key ${info.demo?.test_key}` },
    });
    expect(response.status).toBe(200);
    expect(await stopCobro(second.child)).toBe(0);

    // persistent.json lost its demo record (the store keeps only key hashes): a fresh demo account, no crash.
    const { demo: _forgotten, ...withoutDemo } = JSON.parse(
      readFileSync(join(stateDir, 'persistent.json'), 'utf8'),
    );
    writeFileSync(join(stateDir, 'persistent.json'), JSON.stringify(withoutDemo));
    const third = startIn(stateDir);
    await third.ready;
    expect(third.output()).toMatch(/demo account \d+ \(demo\+\d+@cobro\.local\), created now/);
    expect(await stopCobro(third.child)).toBe(0);
  });
});
