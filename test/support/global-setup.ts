/**
 * Starts the local stack once for every suite, the way a user does (`node bin/start.ts`), in memory,
 * on a free port, with its state in a temporary folder. Suites reach it over HTTP and, for direct
 * store access, through the local.json it writes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { rehearsalAssembly } from '../../infra/local/rehearsal/assembly.ts';

const root = resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    stateDir: string;
    apiUrl: string;
  }
}

/** Spawns `bin/start.ts` and resolves with its URL once it prints the ready line. */
export function startCobro(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [join(root, 'bin/start.ts'), ...args], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<string>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/cobro listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveReady(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`start exited with ${code}:\n${output}`));
    });
  });
  return { child, ready, output: () => output };
}

/** Stops a started stack as Ctrl-C would and waits for it to exit. */
export async function stopCobro(child: ChildProcess): Promise<number | null> {
  // Already gone (a kill -9 in a test, say): its 'exit' was emitted and will not come again.
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.kill('SIGINT');
  return exited;
}

/**
 * COBRO_REHEARSAL=1 runs the suites against a rehearsal stack (`npm start -- --rehearsal`): the
 * functions CDK bundled, under the template's IAM policies. The assembly is made (or found cached)
 * here, before the stack starts, so a synth never counts against the stack's ready timeout.
 */
export const rehearsing = process.env.COBRO_REHEARSAL === '1';

export default async function setup(project: TestProject) {
  const stateDir = mkdtempSync(join(tmpdir(), 'cobro-test-'));
  if (rehearsing) await rehearsalAssembly(undefined, (message) => console.log(`cobro: ${message}`));
  const started = startCobro([
    '--in-memory',
    '--port',
    '0',
    '--quiet',
    '--state-dir',
    stateDir,
    ...(rehearsing ? ['--rehearsal'] : []),
  ]);
  const apiUrl = await started.ready;
  project.provide('stateDir', stateDir);
  project.provide('apiUrl', apiUrl);
  return async () => {
    await stopCobro(started.child);
    rmSync(stateDir, { recursive: true, force: true });
  };
}
