/** `npm start` as a user meets it: a busy port, a clean Ctrl-C, data kept across restarts. */

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { portIsFree } from '../../infra/local/ports.ts';
import type { LocalInfo } from '../../infra/local/stack.ts';
import { startCobro, stopCobro } from '../support/global-setup.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-start-'));
  dirs.push(dir);
  return dir;
};
// Every stack a test starts is stopped even when an assertion fails first: no Java left behind.
const children: ChildProcess[] = [];
const start = (args: string[], env?: NodeJS.ProcessEnv) => {
  const started = startCobro(args, env);
  children.push(started.child);
  return started;
};
afterEach(async () => {
  await Promise.all(children.splice(0).map((child) => stopCobro(child)));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Command lines of every running process that mentions `needle` (Linux /proc). */
function processesMentioning(needle: string): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return command.includes(needle) ? [command] : [];
      } catch {
        return []; // the process ended while we looked
      }
    });
}

describe('npm start', () => {
  it('stopped while still starting, leaves no DynamoDB Local behind', { timeout: 60_000 }, async () => {
    const stateDir = tempDir();
    const started = start(['--port', '0', '--quiet', '--state-dir', stateDir]);
    started.ready.catch(() => undefined); // it is stopped before it is ready
    // Wait until Java is up (it runs with the state folder on its command line), then interrupt.
    const deadline = Date.now() + 20_000;
    while (processesMentioning(stateDir).filter((c) => c.includes('DynamoDBLocal')).length === 0) {
      if (Date.now() > deadline) throw new Error('DynamoDB Local never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await stopCobro(started.child);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(processesMentioning(stateDir).filter((c) => c.includes('DynamoDBLocal'))).toEqual([]);
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

  it('keeps data across a restart and stops everything, Java included, on Ctrl-C', {
    timeout: 120_000,
  }, async () => {
    const stateDir = tempDir();
    const first = start(['--port', '0', '--quiet', '--state-dir', stateDir]);
    const url = await first.ready;
    expect(first.output()).toMatch(/test key\s+sk_test_[A-Za-z0-9]{32}/);
    const info = JSON.parse(readFileSync(join(stateDir, 'local.json'), 'utf8')) as LocalInfo;
    expect(info.api_url).toBe(url);
    expect(info.demo?.test_key).toMatch(/^sk_test_/);
    expect(await stopCobro(first.child)).toBe(0);
    for (const port of Object.values(info.ports)) expect(await portIsFree(port)).toBe(true);

    const second = start(['--port', '0', '--quiet', '--state-dir', stateDir]);
    const secondUrl = await second.ready;
    expect(second.output()).not.toContain('created now');
    const response = await fetch(`${secondUrl}/v1/auth/api-keys/`, {
      headers: { Authorization: `Api-Key ${info.demo?.test_key}` },
    });
    expect(response.status).toBe(200);
    expect(await stopCobro(second.child)).toBe(0);

    // local.json lost its demo record (the store keeps only key hashes): a fresh demo account, no crash.
    const { demo: _forgotten, ...withoutDemo } = JSON.parse(
      readFileSync(join(stateDir, 'local.json'), 'utf8'),
    );
    writeFileSync(join(stateDir, 'local.json'), JSON.stringify(withoutDemo));
    const third = start(['--port', '0', '--quiet', '--state-dir', stateDir]);
    await third.ready;
    expect(third.output()).toMatch(/demo account \d+ \(demo\+\d+@cobro\.local\), created now/);
    expect(await stopCobro(third.child)).toBe(0);
  });
});
