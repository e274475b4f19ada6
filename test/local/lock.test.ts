/** One stack per state folder: `.cobro/stack.lock`, taken atomically, refuses a second `npm start`. */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitOf, readInfo, readJson, stackHarness } from './harness.ts';

const { start, startIn, tempDir } = stackHarness();

describe('npm start twice on one state folder', () => {
  it('refuses the second start, naming the running stack, and leaves the first alone', {
    timeout: 120_000,
  }, async () => {
    const stateDir = tempDir();
    const first = startIn(stateDir);
    const url = await first.ready;
    const lock = readJson<{ pid: number; port: number; started_at: string; api_url: string }>(
      join(stateDir, 'stack.lock'),
    );
    expect(lock).toMatchObject({ pid: first.child.pid, api_url: url, port: Number(new URL(url).port) });
    expect(Date.parse(lock.started_at)).not.toBeNaN();

    for (const args of [
      ['--port', '0'],
      ['--in-memory', '--port', '0'],
    ]) {
      const second = start([...args, '--quiet', '--state-dir', stateDir]);
      await expect(second.ready).rejects.toThrow(/start exited with 1/);
      expect(second.output()).toContain(
        `another cobro stack already runs on ${stateDir} (pid ${first.child.pid}, ${url}`,
      );
    }
    expect(readInfo(stateDir).api_url).toBe(url);
    expect(readInfo(stateDir).pid).toBe(first.child.pid);
    expect((await fetch(`${url}/health`)).status).toBe(200);

    first.child.kill('SIGINT');
    expect(await exitOf(first.child)).toBe(0);
    expect(existsSync(join(stateDir, 'stack.lock'))).toBe(false);
    expect(existsSync(join(stateDir, 'local.json'))).toBe(false);
  });

  it('takes over a lock whose process is gone', { timeout: 120_000 }, async () => {
    const stateDir = tempDir();
    const gone = spawnSync(process.execPath, ['-e', 'process.pid']).pid;
    writeFileSync(
      join(stateDir, 'stack.lock'),
      JSON.stringify({ pid: gone, port: 3000, started_at: '2020-01-01T00:00:00.000Z' }),
    );
    const started = startIn(stateDir);
    await started.ready;
    expect(readJson(join(stateDir, 'stack.lock')).pid).toBe(started.child.pid);
  });
});
