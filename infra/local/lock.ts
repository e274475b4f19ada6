/**
 * One stack per state folder: `stack.lock` is created atomically (open with 'wx') by the stack that
 * starts, holds its pid, port and start time, and is removed when it stops. A lock whose process is
 * gone (a crash, a kill -9) is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from './info.ts';

export interface LockRecord {
  pid: number;
  /** The API port asked for (0: any) until the stack listens, then the one it listens on. */
  port: number;
  started_at: string;
  api_url?: string;
}

export interface StackLock {
  path: string;
  /** Rewrites the record (the API's URL once known). */
  update(fields: Partial<LockRecord>): void;
  /** Removes the lock if it is still this process's. */
  release(): void;
}

export class StackRunning extends Error {
  readonly holder: LockRecord;
  constructor(stateDir: string, holder: LockRecord) {
    const where = holder.api_url ?? `port ${holder.port || '(still starting)'}`;
    super(
      `another cobro stack already runs on ${stateDir} (pid ${holder.pid}, ${where}, started ${holder.started_at}): stop it with Ctrl-C (or kill ${holder.pid}), or start this one in another folder on another port: PORT=<port> npm start -- --state-dir <folder>`,
    );
    this.holder = holder;
  }
}

export const lockFile = 'stack.lock';

function readRecord(path: string): LockRecord | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LockRecord;
  } catch {
    return undefined; // gone, or being written this very moment
  }
}

/** Takes the state folder's lock or throws StackRunning naming the stack that holds it. */
export function acquireLock(stateDir: string, port: number): StackLock {
  const path = join(stateDir, lockFile);
  let record: LockRecord = { pid: process.pid, port, started_at: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeFileSync(fd, `${JSON.stringify(record)}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readRecord(path);
      if (holder && processAlive(holder.pid) && holder.pid !== process.pid)
        throw new StackRunning(stateDir, holder);
      if (attempt >= 40) throw error;
      if (!holder && attempt < 20) {
        // Created but not yet written by a stack starting right now: look again shortly.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
        continue;
      }
      // Its process is gone (or it never got written in half a second): a stale lock.
      rmSync(path, { force: true });
    }
  }
  return {
    path,
    update(fields) {
      record = { ...record, ...fields };
      if (readRecord(path)?.pid === process.pid)
        writeFileSync(path, `${JSON.stringify(record)}\n`, { mode: 0o600 });
    },
    release() {
      if (readRecord(path)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}
