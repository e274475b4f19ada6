/**
 * What the `npm start` suites share: stacks started as a user starts them (`node bin/start.ts`), each
 * in its own temporary state folder, always stopped after each test, and a look at their processes.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { LocalInfo } from '../../infra/local/info.ts';
import { eventually } from '../support/eventually.ts';
import { startCobro, stopCobro } from '../support/global-setup.ts';

/** Registers the hooks (call once per file) and returns the helpers bound to them. */
export function stackHarness() {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    await Promise.all(children.splice(0).map((child) => stopCobro(child)));
  });
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  /** Starts `bin/start.ts`; it is stopped after the test even when an assertion fails first. */
  const start = (args: string[], env?: NodeJS.ProcessEnv) => {
    const started = startCobro(args, env);
    children.push(started.child);
    return started;
  };
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'cobro-local-'));
    dirs.push(dir);
    return dir;
  };
  /** A quiet stack on a free API port with its state in `stateDir` (`extra`: `--in-memory`, say). */
  const startIn = (stateDir: string, extra: string[] = []) =>
    start([...extra, '--port', '0', '--quiet', '--state-dir', stateDir]);
  return {
    tempDir,
    start,
    /** A quiet stack on a free API port with its state in `stateDir` (`extra`: `--in-memory`, say). */
    startIn,
    /** A stack started in a new state folder and ready: the folder, the process, its URL and local.json. */
    async running(extra: string[] = []) {
      const stateDir = tempDir();
      const started = startIn(stateDir, extra);
      const url = await started.ready;
      return { stateDir, started, url, info: readInfo(stateDir) };
    },
  };
}

export const readJson = <T = Record<string, unknown>>(path: string): T =>
  JSON.parse(readFileSync(path, 'utf8')) as T;

export const readInfo = (stateDir: string) => readJson<LocalInfo>(join(stateDir, 'local.json'));

/** Pids of running processes whose command line mentions every needle (Linux /proc). */
export function pidsMentioning(...needles: string[]): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return needles.every((needle) => command.includes(needle)) ? [Number(pid)] : [];
      } catch {
        return []; // the process ended while we looked
      }
    });
}

/** The parent of process `pid` (Linux /proc), or undefined once it is gone. */
export function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: read after its last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * The DynamoDB Local (Java) process serving this stack: a child of the stack's own process. Never
 * found by port or name alone: another stack's Java (or anything naming the port) may run beside it.
 */
export function javaOf(info: LocalInfo): number {
  const pids = pidsMentioning('DynamoDBLocal').filter((pid) => parentOf(pid) === info.pid);
  if (pids.length !== 1) throw new Error(`expected one DynamoDB Local started by ${info.pid}, found ${pids}`);
  return pids[0] as number;
}

/**
 * The stack's output once it includes `text` (or after 10 s, for the assertion to show what it
 * said). Its stdout and stderr are separate pipes: a line written to stderr before the ready line
 * may still be on its way when the ready line arrives.
 */
export async function outputOnce(started: { output(): string }, text: string): Promise<string> {
  await eventually(
    `the stack to say ${text}`,
    async () => (started.output().includes(text) ? true : undefined),
    10_000,
  ).catch(() => undefined);
  return started.output();
}

/** Resolves with the exit code once the child exits. */
export const exitOf = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
