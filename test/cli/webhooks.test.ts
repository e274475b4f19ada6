/**
 * `cobro webhooks listen` as a developer runs it against the local stack: it prints each delivery,
 * forwards it signed, disables its endpoint on Ctrl-C and keeps it, with its secret, for the next run;
 * `webhooks dead-letters` lists exhausted ones.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../infra/local/info.ts';
import { maxAttempts } from '../../shared/webhooks/delivery.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { eventually } from '../support/eventually.ts';
import { startReceiver, verify } from '../support/receiver.ts';
import {
  api,
  apiKey,
  newAccount,
  stateDir,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { sweepEndpointAt } from '../support/webhooks.ts';

let account: TestAccount;
beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('listen');
});

/** Starts `webhooks listen`; answers its output so far, a wait for text, and Ctrl-C. */
function startListen(args: string[]) {
  const child = spawn(
    process.execPath,
    [join(projectRoot, 'bin/cli.ts'), 'webhooks', 'listen', ...args, '--state-dir', stateDir],
    { cwd: projectRoot, env: { ...process.env, TABLE_NAME: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return {
    output: () => output,
    exited,
    waitFor: (pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> =>
      eventually(`${pattern} in its output`, () => output.match(pattern) ?? undefined, {
        timeout: timeoutMs,
        interval: 50,
      }).catch((error: Error) => {
        throw new Error(`${error.message}; it said:\n${output}`);
      }),
    async interrupt(): Promise<number | null> {
      child.kill('SIGINT');
      return exited;
    },
  };
}

describe('webhooks listen', () => {
  it('prints each delivery, forwards it verifiably, and disables its endpoint on Ctrl-C', async () => {
    const receiver = await startReceiver();
    const listener = startListen(['--key', account.testKey, '--forward-to', `${receiver.url}/app`]);
    const ready = await listener.waitFor(/endpoint (we_\w+)\)[\s\S]*secret: (whsec_\S+) {2}\(a new endpoint/);
    const [, endpointId, secret] = ready;
    const auth = apiKey(account.testKey);
    const listed = await api('GET', `/v1/webhook-endpoints/${endpointId}/`, { auth });
    expect(listed.status).toBe(200);
    expect(listed.json.events).toEqual(['*']);

    const paid = await payThroughCheckout(auth);
    const line = await listener.waitFor(/payment\.succeeded\s+(evt_\w+)\s+\[200\] -> \S+ 200\s+signature ok/);
    const [forwarded] = await receiver.waitFor(
      (request) => request.path === '/app' && request.json?.type === 'payment.succeeded',
      1,
    );
    expect(forwarded?.json).toMatchObject({ type: 'payment.succeeded', data: { object: { id: paid.id } } });
    expect(forwarded?.headers['webhook-id']).toBe(line[1]);
    verify(String(secret), forwarded as never); // the developer's app verifies with the printed secret

    expect(await listener.interrupt()).toBe(0);
    expect(listener.output()).toContain(`Disabled endpoint ${endpointId}`);
    const stopped = await api('GET', `/v1/webhook-endpoints/${endpointId}/`, { auth });
    expect(stopped.json.enabled).toBe(false);
  });

  it('a second run reuses the endpoint and its secret, so a receiver configured once still verifies', async () => {
    const owner = await newAccount('listen-again');
    const auth = apiKey(owner.testKey);
    const first = startListen(['--key', owner.testKey]);
    const [, endpointId, secret] = await first.waitFor(/endpoint (we_\w+)\)[\s\S]*secret: (whsec_\S+)/);
    expect(await first.interrupt()).toBe(0);

    const receiver = await startReceiver();
    const second = startListen(['--key', owner.testKey, '--forward-to', `${receiver.url}/again`]);
    const again = await second.waitFor(
      /endpoint (we_\w+)\)[\s\S]*secret: (whsec_\S+) {2}\(the same as the last run/,
    );
    expect(again.slice(1)).toEqual([endpointId, secret]);
    const listed = await api('GET', `/v1/webhook-endpoints/${endpointId}/`, { auth });
    expect(listed.json).toMatchObject({ enabled: true, url: second.output().match(/come to (\S+) /)?.[1] });
    await payThroughCheckout(auth);
    const [forwarded] = await receiver.waitFor((request) => request.path === '/again', 1);
    verify(String(secret), forwarded as never); // the first run's secret still verifies
    expect(await second.interrupt()).toBe(0);

    // --new-secret rotates it on purpose: the same endpoint, another secret.
    const third = startListen(['--key', owner.testKey, '--new-secret']);
    const rotated = await third.waitFor(/endpoint (we_\w+)\)[\s\S]*secret: (whsec_\S+) {2}\(new/);
    expect(rotated[1]).toBe(endpointId);
    expect(rotated[2]).not.toBe(secret);
    expect(await third.interrupt()).toBe(0);
    const fourth = startListen(['--key', owner.testKey]);
    const kept = await fourth.waitFor(/secret: (whsec_\S+) {2}\(the same/);
    expect(kept[1]).toBe(rotated[2]);
    expect(await fourth.interrupt()).toBe(0);

    // An endpoint deleted meanwhile is made again (a new secret, said so).
    expect((await api('DELETE', `/v1/webhook-endpoints/${endpointId}/`, { auth })).status).toBeLessThan(300);
    const fifth = startListen(['--key', owner.testKey]);
    const remade = await fifth.waitFor(/endpoint (we_\w+)\)[\s\S]*secret: (whsec_\S+) {2}\(a new endpoint/);
    expect(remade[1]).not.toBe(endpointId);
    expect(await fifth.interrupt()).toBe(0);
  });

  it('--until stops it by itself once a delivery of one of those types came, disabling its endpoint', async () => {
    const owner = await newAccount('listen-until');
    const auth = apiKey(owner.testKey);
    const listener = startListen(['--key', owner.testKey, '--until', 'refund.created, payment.succeeded']);
    const [, endpointId] = await listener.waitFor(
      /endpoint (we_\w+)\)[\s\S]*a delivery of refund\.created or payment\.succeeded, stops/,
    );
    // Another type does not stop it.
    await cli('trigger', 'plan.deleted', '--key', owner.testKey);
    await listener.waitFor(/plan\.deleted\s+evt_\w+\s+\[200\]\s+signature ok/);
    await payThroughCheckout(auth);
    expect(await listener.exited).toBe(0);
    expect(listener.output()).toMatch(/payment\.succeeded\s+evt_\w+\s+\[200\]\s+signature ok\n/);
    expect(listener.output()).toContain(`Disabled endpoint ${endpointId}`);
    const stopped = await api('GET', `/v1/webhook-endpoints/${endpointId}/`, { auth });
    expect(stopped.json.enabled).toBe(false);
    await expectCliRefusal(['webhooks', 'listen', '--until', ','], 2, '--until: event types');
  });

  it('refuses a live key and an unknown one', async () => {
    await expectCliRefusal(['webhooks', 'listen', '--key', account.liveKey], 2, 'test key');
    await expectCliRefusal(['webhooks', 'listen', '--key', 'sk_test_nope'], 2, 'not a key of this stack');
  });
});

describe('webhooks dead-letters', () => {
  it('lists a delivery that ran out of retries, as JSON lines', async () => {
    const receiver = await startReceiver();
    receiver.answer('/down', ...Array.from({ length: maxAttempts }, () => 500));
    const auth = apiKey(account.testKey);
    const created = await api('POST', '/v1/webhook-endpoints/', {
      auth,
      body: { url: `${receiver.url}/down`, events: ['payment.succeeded'] },
    });
    expect(created.status).toBe(201);
    const endpointId = created.json.data.id as string;
    await payThroughCheckout(auth);
    // Each sweep runs a day after the last: every retry is due by then (the schedule's longest wait is 24 h).
    let last = '';
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      last = await attemptListed(endpointId, attempt);
      if (attempt < maxAttempts) await sweepAt(new Date(Date.parse(last) + 86_400_000), endpointId);
    }
    const { stdout } = await cli('webhooks', 'dead-letters', '--days', '1', '--now', last);
    const letters = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(letters).toContainEqual(
      expect.objectContaining({
        endpoint_id: endpointId,
        event_type: 'payment.succeeded',
        attempts: maxAttempts,
      }),
    );
    await expectCliRefusal(['webhooks', 'dead-letters', '--days', '0'], 2, '--days');
  });
});

/** Waits until the endpoint's deliveries list has `attempt` attempts; answers the latest's time. */
async function attemptListed(endpointId: string, attempt: number): Promise<string> {
  return eventually(
    `attempt ${attempt} to be listed`,
    async () => {
      const listed = await api('GET', `/v1/webhook-endpoints/${endpointId}/deliveries/`, {
        auth: apiKey(account.testKey),
      });
      return listed.json.count >= attempt ? (listed.json.results[0].created_at as string) : undefined;
    },
    { timeout: 15_000, interval: 50 },
  );
}

/** The retry sweep at a chosen time, for this endpoint's tasks only (the stack is shared). */
const sweepAt = (now: Date, endpointId: string) => sweepEndpointAt(now, account.developerId, endpointId);
