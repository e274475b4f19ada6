/**
 * The soak's own cobro stack: `node bin/start.ts --state-dir <its folder> --port <its port> --quiet`,
 * persistent (DynamoDB Local keeps its data on disk, so a kill loses nothing durable), killed on
 * purpose and started again on the same folder and port, and never leaving a DynamoDB Local (Java)
 * behind. The operator CLI is run against it with `--state-dir`, as `npm run -s cli -- … --state-dir`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type LocalInfo, projectRoot, readLocalInfo } from '../../infra/local/info.ts';
import { portIsFree } from '../../infra/local/ports.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Pids of live processes whose command line contains every needle (Linux /proc). */
export function pidsMentioning(...needles: string[]): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return needles.every((needle) => command.includes(needle)) ? [Number(pid)] : [];
      } catch {
        return []; // it ended while we looked
      }
    });
}

/** The parent of a process (Linux /proc/<pid>/stat), or undefined once it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields after its last ')' are fixed.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * An API port for the soak's stack: not 3000 (a developer's `npm start`), not an emulator's default
 * (8000, 4569, 8005, 4010), and below Linux's ephemeral range (32768 and up), where the test stacks'
 * `--port 0` and every outgoing connection get theirs, so it is still free when the stack restarts.
 */
export async function soakPort(): Promise<number> {
  for (;;) {
    const port = 21_000 + Math.floor(Math.random() * 9_000);
    if (await portIsFree(port)) return port;
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The command as a user types it. */
  command: string;
}

export class SoakStack {
  readonly stateDir: string;
  readonly port: number;
  /** The stack's own output, kept in the state folder. */
  readonly logFile: string;
  /** The local info of the stack running now (control URL and token change at each start). */
  info: LocalInfo | undefined;
  /** Called when the stack exits without being asked to (a kill of ours is asked). */
  onUnexpectedExit: ((how: string, lastOutput: string) => void) | undefined;
  #child: ChildProcess | undefined;
  #expectedExit = false;
  #lastLines: string[] = [];
  #clis = new Set<ChildProcess>();
  /** The command (`billing run`, `payouts run`, …) of every CLI run the soak started, by its pid. */
  readonly cliCommands = new Map<number, string>();
  #up: Promise<void> | undefined;
  #markUp: () => void = () => undefined;
  #isUp = false;

  constructor(stateDir: string, port: number) {
    this.stateDir = stateDir;
    this.port = port;
    this.logFile = join(stateDir, 'soak-stack.log');
    this.#down();
  }

  /** Where DynamoDB Local keeps this stack's data: its Java command line names it, and no other's. */
  get dataDir(): string {
    return join(this.stateDir, 'dynamodb');
  }

  /** The arguments of bin/start.ts: persistent (no --in-memory), this folder and port, quiet. */
  get #args(): string[] {
    return ['--state-dir', this.stateDir, '--port', String(this.port), '--quiet'];
  }

  /** The command that starts the stack, as a user types it. */
  get command(): string {
    return `node bin/start.ts ${this.#args.join(' ')}`;
  }

  /** Resolves once the stack is up (at once when it is). */
  available(): Promise<void> {
    return this.#up ?? Promise.resolve();
  }

  get isUp(): boolean {
    return this.#isUp;
  }

  /** Marks the stack down: `available()` waits from now on, until it is up again. */
  #down(): void {
    if (!this.#isUp && this.#up) return; // already down: keep the promise workers wait on
    this.#isUp = false;
    this.#up = new Promise((resolve) => {
      this.#markUp = resolve;
    });
  }

  #upNow(): void {
    this.#isUp = true;
    this.#markUp();
  }

  #keep(chunk: Buffer): void {
    appendFileSync(this.logFile, chunk);
    this.#lastLines.push(...chunk.toString().split('\n').filter(Boolean));
    this.#lastLines = this.#lastLines.slice(-30);
  }

  lastOutput(): string {
    return this.#lastLines.join('\n');
  }

  /** Starts the stack and waits for its ready line; answers how long that took. */
  async start(): Promise<number> {
    const began = Date.now();
    this.#expectedExit = false;
    const child = spawn(process.execPath, [join(projectRoot, 'bin/start.ts'), ...this.#args], {
      cwd: projectRoot,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    let output = '';
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ready line within 120 s:\n${output}`)), 120_000);
      const onData = (chunk: Buffer) => {
        this.#keep(chunk);
        output += chunk.toString();
        if (/cobro listening on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the stack exited while starting (${signal ?? `code ${code}`}):\n${output}`));
      });
    });
    child.once('exit', (code, signal) => {
      this.#down();
      if (this.#child === child) this.#child = undefined;
      if (!this.#expectedExit && this.#isStarted(child))
        this.onUnexpectedExit?.(signal ? `killed by ${signal}` : `exit code ${code}`, this.lastOutput());
    });
    await ready;
    // The ready line comes after local.json holds everything (the demo account included).
    this.info = readLocalInfo(this.stateDir);
    this.#started.add(child);
    this.#upNow();
    return Date.now() - began;
  }

  #started = new WeakSet<ChildProcess>();
  #isStarted(child: ChildProcess): boolean {
    return this.#started.has(child);
  }

  /** GET /health: its status, or 0 when nothing answers. */
  async health(): Promise<number> {
    if (!this.info) return 0;
    try {
      const response = await fetch(this.info.health_url, { signal: AbortSignal.timeout(3_000) });
      await response.text();
      return response.status;
    } catch {
      return 0;
    }
  }

  /** Every DynamoDB Local of this stack's data folder, the stack's own child or an orphan. */
  javas(): number[] {
    return pidsMentioning('DynamoDBLocal', `-dbPath ${this.dataDir}`);
  }

  /** The DynamoDB Local the running stack supervises (its child process). */
  javaChild(): number | undefined {
    const stack = this.#child?.pid;
    return this.javas().find((pid) => parentOf(pid) === stack);
  }

  /**
   * SIGKILLs DynamoDB Local. The stack restarts it with the same data (README "Supervision"), or
   * stops saying why: answers how the stack reacted once it answers /health 200 again (after its
   * own restart of Java, or after the soak restarted a stack that exited).
   */
  async killDynamo(): Promise<{ backMs: number; how: string }> {
    const java = this.javaChild();
    if (!java) throw new Error('the stack has no DynamoDB Local child to kill');
    const child = this.#child;
    const began = Date.now();
    process.kill(java, 'SIGKILL');
    const deadline = began + 90_000;
    for (;;) {
      if (this.#child !== child) {
        // The stack exited (onUnexpectedExit restarts it): wait for that restart.
        await this.available();
        return { backMs: Date.now() - began, how: 'the stack exited; the soak started it again' };
      }
      const again = this.javaChild();
      if (again && again !== java && (await this.health()) === 200)
        return {
          backMs: Date.now() - began,
          how: `the stack restarted DynamoDB Local (pid ${java} → ${again})`,
        };
      if (Date.now() > deadline)
        throw new Error(`the stack did not answer /health 200 within 90 s after DynamoDB Local was killed`);
      await sleep(100);
    }
  }

  /**
   * SIGKILLs the stack process and its DynamoDB Local at once (nothing of either can clean up), then
   * starts the stack again on the same folder and port; answers how long until it was ready.
   */
  async killStack(): Promise<{ backMs: number; how: string }> {
    const child = this.#child;
    if (!child?.pid) throw new Error('no stack to kill');
    const java = this.javaChild();
    const began = Date.now();
    this.#expectedExit = true;
    this.#down();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(child.pid, 'SIGKILL');
    if (java) process.kill(java, 'SIGKILL');
    // Reaped before the restart: a zombie still counts as alive, and would keep the lock.
    await exited;
    await this.#noJavaLeft(10_000);
    await this.start();
    return {
      backMs: Date.now() - began,
      how: `SIGKILL to stack pid ${child.pid} and Java pid ${java}; started again`,
    };
  }

  async #noJavaLeft(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.javas().length > 0) {
      if (Date.now() > deadline) throw new Error(`DynamoDB Local still runs: ${this.javas().join(', ')}`);
      await sleep(50);
    }
  }

  /** Stops the stack as Ctrl-C does (SIGKILL after 30 s); answers its exit code. */
  async stop(): Promise<number | null> {
    for (const cli of this.#clis) cli.kill('SIGKILL');
    const child = this.#child;
    if (!child) return null;
    this.#expectedExit = true;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    const forced = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await exited;
    clearTimeout(forced);
    return code;
  }

  /** Last resort when the soak itself ends abruptly: kill what it started, synchronously. */
  killEverything(): void {
    for (const cli of this.#clis) cli.kill('SIGKILL');
    this.#child?.kill('SIGKILL');
    for (const pid of this.javas()) process.kill(pid, 'SIGKILL');
  }

  /** Runs `node bin/cli.ts <args> --state-dir <folder>` (what `npm run -s cli -- …` runs). */
  cli(args: string[], timeoutMs = 180_000): Promise<CliRun> {
    const full = [...args, '--state-dir', this.stateDir];
    const child = spawn(process.execPath, [join(projectRoot, 'bin/cli.ts'), ...full], {
      cwd: projectRoot,
      // An empty TABLE_NAME keeps the CLI on this local stack, whatever the caller's shell has set.
      env: { ...process.env, TABLE_NAME: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#clis.add(child);
    // The stack's fault registry names a CLI run by its pid: the summary says which command it was.
    const firstOption = args.findIndex((arg) => arg.startsWith('-'));
    if (child.pid !== undefined)
      this.cliCommands.set(
        child.pid,
        args.slice(0, firstOption === -1 ? args.length : firstOption).join(' '),
      );
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    return new Promise((resolve) => {
      child.once('exit', (code) => {
        clearTimeout(timer);
        this.#clis.delete(child);
        resolve({ code, stdout, stderr, command: `npm run -s cli -- ${full.join(' ')}` });
      });
    });
  }
}
