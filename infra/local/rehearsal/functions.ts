/**
 * The rehearsal functions: each template function runs from its bundle in a worker thread of its
 * own, started on its first invocation (a cold start) and kept warm after. A worker thread, not a
 * process: 70-odd Node processes would take gigabytes and a second each to start on this kind of
 * machine, while a worker still gets its own module graph, its own `process.env` (exactly the
 * variables given here, nothing of the stack's), its own heap limit (the function's memory size) and
 * dies alone. Each function's output goes to its own log file (`<logDir>/<logical id>.log`), as to
 * its CloudWatch log stream.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../info.ts';
import { layerModules } from './layers.ts';
import type { TemplateFunction } from './template.ts';

export interface FunctionPoolOptions {
  functions: ReadonlyMap<string, TemplateFunction>;
  /** What each function's environment has beyond the template's: endpoints, region, its credentials. */
  platformEnvironment: (fn: TemplateFunction) => Record<string, string>;
  logDir: string;
}

export class InvocationError extends Error {
  readonly errorType: string;
  constructor(functionId: string, errorType: string, message: string) {
    super(`${functionId} failed: ${errorType}: ${message}`);
    this.errorType = errorType;
  }
}

interface Running {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>;
}

export interface FunctionPool {
  invoke(logicalId: string, event: unknown, timeoutMs?: number): Promise<unknown>;
  /** The functions with a warm worker now. */
  warm(): string[];
  /** Where a function's log file is. */
  logFile(logicalId: string): string;
  close(): Promise<void>;
}

export function startFunctionPool(options: FunctionPoolOptions): FunctionPool {
  mkdirSync(options.logDir, { recursive: true });
  const running = new Map<string, Running>();
  let sequence = 0;
  let closed = false;
  const logFile = (logicalId: string) => join(options.logDir, `${logicalId}.log`);

  const start = (fn: TemplateFunction): Running => {
    const environment = {
      ...fn.environment(),
      ...options.platformEnvironment(fn),
    };
    const worker = new Worker(new URL('./runtime.ts', import.meta.url), {
      workerData: {
        bundle: fn.bundle,
        exportName: fn.exportName,
        functionName: fn.logicalId,
        memoryMb: fn.memoryMb,
        layerModules: fn.layers.map((layer) => layerModules(layer, projectRoot)),
      },
      env: environment,
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: fn.memoryMb },
      name: fn.logicalId,
    });
    const file = logFile(fn.logicalId);
    const log = (chunk: Buffer) => appendFileSync(file, chunk);
    worker.stdout.on('data', log);
    worker.stderr.on('data', log);
    const pending: Running['pending'] = new Map();
    const ready = new Promise<void>((resolve, reject) => {
      worker.on(
        'message',
        (message: {
          type: string;
          id?: number;
          result?: unknown;
          error?: { errorType: string; errorMessage: string };
        }) => {
          if (message.type === 'ready') return resolve();
          if (message.type === 'init-error') {
            const error = message.error ?? { errorType: 'Error', errorMessage: 'init failed' };
            return reject(
              new InvocationError(
                fn.logicalId,
                `Runtime.ImportModuleError (${error.errorType})`,
                error.errorMessage,
              ),
            );
          }
          const waiting = message.id === undefined ? undefined : pending.get(message.id);
          if (!waiting || message.id === undefined) return;
          pending.delete(message.id);
          if (message.type === 'result') waiting.resolve(message.result);
          else
            waiting.reject(
              new InvocationError(
                fn.logicalId,
                message.error?.errorType ?? 'Error',
                message.error?.errorMessage ?? '',
              ),
            );
        },
      );
      worker.on('error', (error) => {
        appendFileSync(file, `Runtime exited with error: ${error.stack ?? error.message}\n`);
        reject(error);
        for (const waiting of pending.values())
          waiting.reject(new InvocationError(fn.logicalId, 'Runtime.ExitError', error.message));
        pending.clear();
      });
      worker.on('exit', (code) => {
        // The next invocation starts it again, cold, as Lambda does after an instance failed.
        if (running.get(fn.logicalId)?.worker === worker) running.delete(fn.logicalId);
        reject(
          new InvocationError(fn.logicalId, 'Runtime.ExitError', `the runtime exited with code ${code}`),
        );
        for (const waiting of pending.values())
          waiting.reject(new InvocationError(fn.logicalId, 'Runtime.ExitError', `exited with code ${code}`));
        pending.clear();
      });
    });
    ready.catch(() => undefined);
    const made = { worker, ready, pending };
    running.set(fn.logicalId, made);
    return made;
  };

  return {
    async invoke(logicalId, event, timeoutMs) {
      if (closed) throw new Error('the rehearsal functions are stopped');
      const fn = options.functions.get(logicalId);
      if (!fn) throw new Error(`no function ${logicalId} in the template`);
      const instance = running.get(logicalId) ?? start(fn);
      await instance.ready;
      const limit = Math.min(timeoutMs ?? fn.timeoutMs, fn.timeoutMs);
      const id = ++sequence;
      let timer: NodeJS.Timeout | undefined;
      try {
        return await new Promise((resolve, reject) => {
          instance.pending.set(id, { resolve, reject });
          timer = setTimeout(() => {
            instance.pending.delete(id);
            appendFileSync(logFile(logicalId), `Task timed out after ${(limit / 1000).toFixed(2)} seconds\n`);
            reject(new InvocationError(logicalId, 'Sandbox.Timedout', `timed out after ${limit} ms`));
          }, limit);
          instance.worker.postMessage({ id, event, deadline: Date.now() + limit });
        });
      } finally {
        clearTimeout(timer);
      }
    },
    warm: () => [...running.keys()],
    logFile,
    async close() {
      closed = true;
      const workers = [...running.values()].map((one) => one.worker);
      running.clear();
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
