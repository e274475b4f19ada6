/**
 * Ctrl-C in a terminal interrupts the whole foreground process group, DynamoDB Local's Java
 * included: the stack stops cleanly and says nothing of a crash.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../infra/local/info.ts';
import { eventually } from '../support/eventually.ts';

describe('Ctrl-C', () => {
  it('stops the stack and its Java with exit code 0 and no crash message', { timeout: 120_000 }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'cobro-interrupt-'));
    try {
      // A group of its own, as a terminal's foreground job: the signal goes to every process in it.
      const child = spawn(
        process.execPath,
        [join(projectRoot, 'bin/start.ts'), '--in-memory', '--port', '0', '--quiet', '--state-dir', stateDir],
        { cwd: projectRoot, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      await eventually(
        'the ready line',
        () => (/cobro listening on/.test(output) ? true : undefined),
        60_000,
      );
      expect(output).toMatch(/cobro listening on/);
      process.kill(-(child.pid as number), 'SIGINT');
      expect(await exited).toBe(0);
      expect(output).not.toMatch(/exited with code|was killed by|data is lost|restarting it/);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
