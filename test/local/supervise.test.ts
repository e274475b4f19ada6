/**
 * The local stack supervises DynamoDB Local: a killed Java is restarted on the same port with the
 * same data, and /health says 503 while the store does not answer; when it cannot come back (its
 * port taken, its data in memory, too many deaths) the stack stops, naming it and why, exit 1.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { maxRestarts, restartWindowMs, tooManyDeaths } from '../../infra/local/dynamodb.ts';
import { eventually } from '../support/eventually.ts';
import { exitOf, javaOf, pidsMentioning, readInfo, stackHarness } from './harness.ts';

const { running, startIn, tempDir } = stackHarness();

async function health(url: string) {
  const response = await fetch(`${url}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Binds `port` on loopback as soon as it is free (Java just died), within `ms`. */
async function takePort(port: number, ms: number): Promise<Server> {
  return eventually(
    `port ${port} to come free`,
    async () => {
      const server = createServer();
      const bound = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      });
      return bound ? server : undefined;
    },
    { timeout: ms, interval: 5 },
  );
}

describe('DynamoDB Local supervision', () => {
  it('restarts a killed Java on the same port with the same data; /health is 503 meanwhile', {
    timeout: 120_000,
  }, async () => {
    const { stateDir, started, url, info } = await running();
    const auth = { Authorization: `Api-Key ${info.demo?.test_key}` };
    expect(await health(url)).toEqual({ status: 200, body: { status: 'ok' } });

    const java = javaOf(info);
    // A neighbour whose command line names DynamoDB Local and this very port does not confuse the search.
    const impostor = spawn(process.execPath, [
      '-e',
      'setInterval(() => {}, 1000)',
      'DynamoDBLocal',
      '-port',
      String(info.ports.dynamodb),
    ]);
    try {
      await eventually(
        'the impostor to run',
        async () =>
          pidsMentioning('DynamoDBLocal', `-port ${info.ports.dynamodb}`).includes(impostor.pid as number)
            ? true
            : undefined,
        30_000,
      );
      expect(javaOf(info)).toBe(java);
    } finally {
      impostor.kill('SIGKILL');
    }
    process.kill(java, 'SIGKILL');
    const down = await eventually(
      '/health to answer 503',
      async () => {
        const answer = await health(url);
        return answer.status === 503 ? answer : undefined;
      },
      30_000,
    );
    expect(down.body).toEqual({ status: 'unavailable', dynamodb: 'unreachable' });

    await eventually(
      '/health to answer 200 again',
      async () => ((await health(url)).status === 200 ? true : undefined),
      60_000,
    );
    expect(javaOf(info)).not.toBe(java);
    expect(readInfo(stateDir).ports.dynamodb).toBe(info.ports.dynamodb);
    const keys = await fetch(`${url}/v1/auth/api-keys/`, { headers: auth });
    expect(keys.status).toBe(200); // the same data: the demo account is still there
    expect(started.output()).toMatch(
      /DynamoDB Local \(pid \d+\) was killed by SIGKILL unexpectedly: restarting it/,
    );
    expect(started.child.exitCode).toBeNull();
  });

  it('stops the stack, naming the port, when another process took it before the restart', {
    timeout: 120_000,
  }, async () => {
    const { started, url, info } = await running();
    process.kill(javaOf(info), 'SIGKILL');
    const impostor = await takePort(info.ports.dynamodb, 900);
    try {
      expect(await exitOf(started.child)).toBe(1);
      expect(started.output()).toContain(
        `and its port ${info.ports.dynamodb} is now taken by another process: stopping the stack`,
      );
      await expect(fetch(`${url}/health`)).rejects.toThrow(); // the API stopped with it
    } finally {
      impostor.close();
    }
  });

  it('stops an in-memory stack whose Java died: its data is gone', { timeout: 120_000 }, async () => {
    const stateDir = tempDir();
    const started = startIn(stateDir, ['--in-memory']);
    await started.ready;
    process.kill(javaOf(readInfo(stateDir)), 'SIGKILL');
    expect(await exitOf(started.child)).toBe(1);
    expect(started.output()).toMatch(
      /DynamoDB Local \(pid \d+\) was killed by SIGKILL; it ran in memory, so its data is lost: stopping the stack/,
    );
  });

  it('gives up after more than three deaths within a minute', () => {
    const now = 1_000_000;
    const deaths = Array.from({ length: maxRestarts }, (_, i) => now - i * 1000);
    expect(tooManyDeaths(deaths, now)).toBe(false);
    expect(tooManyDeaths([...deaths, now - 2000], now)).toBe(true);
    expect(tooManyDeaths([...deaths, now - restartWindowMs], now)).toBe(false); // an old one
  });
});
