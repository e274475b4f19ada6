/**
 * Processes by their command line, and stopping one for good. Linux only (/proc): elsewhere no
 * process is listed, and what relies on this (ending a DynamoDB Local an earlier start left behind)
 * does nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessInfo {
  pid: number;
  /** The arguments it was started with, the program first. */
  argv: string[];
}

/** Every process this user can see, with its arguments (none where there is no /proc). */
export function listProcesses(): ProcessInfo[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
        if (argv.at(-1) === '') argv.pop();
        return argv.length > 0 ? [{ pid: Number(entry), argv }] : [];
      } catch {
        return []; // it ended while we looked
      }
    });
}

/** Whether `pid` has ended (a zombie, which only waits for its parent to read its status, has). */
export function processEnded(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false; // alive, and no /proc to say more
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function endedWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!processEnded(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Stops `pid`: SIGTERM, then SIGKILL if it still runs after `graceMs`; resolves once it has ended.
 * Throws when it may not be signalled (another user's) or outlives SIGKILL by five seconds.
 */
export async function stopProcess(pid: number, graceMs = 3000): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  };
  signal('SIGTERM');
  if (await endedWithin(pid, graceMs)) return;
  signal('SIGKILL');
  if (!(await endedWithin(pid, 5000))) throw new Error(`process ${pid} did not end after SIGKILL`);
}
