/**
 * Runs the real handler modules in this process the way Lambda would: one module instance per
 * entry (its clients made once at import), a Lambda context with a deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';

type Handler = (event: unknown, context: Context) => Promise<unknown>;

/**
 * How the stack's parts (the gateway, the bus, the stream reader, the schedules) run a function: by
 * its handler module (`functions/…/x.ts`), or by whatever target name the bus's rules give.
 */
export type Invoker = (target: string, event: unknown, timeoutMs?: number) => Promise<unknown>;

/** The in-process invoker: the handler modules of the checkout under `root`. */
export const inProcess =
  (root: string): Invoker =>
  (target, event, timeoutMs) =>
    invoke(root, target, event, timeoutMs);

const loaded = new Map<string, Promise<Handler>>();

/** Imports `entry` (relative to `root`) once and returns its `handler` export. */
export function loadHandler(root: string, entry: string): Promise<Handler> {
  const file = join(root, entry);
  let handler = loaded.get(file);
  if (!handler) {
    handler = import(pathToFileURL(file).href).then((module: { handler?: Handler }) => {
      if (typeof module.handler !== 'function') throw new Error(`${entry} exports no handler`);
      return module.handler;
    });
    loaded.set(file, handler);
  }
  return handler;
}

/** A Lambda context for one invocation of `entry` with the given timeout. */
export function lambdaContext(entry: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const functionName = entry
    .replace(/^functions\//, '')
    .replace(/\.ts$/, '')
    .replaceAll('/', '-');
  const fail = () => {
    throw new Error('callback-style completion is not supported');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: fail,
    fail,
    succeed: fail,
  };
}

/**
 * Which function the code running now belongs to (its entry), for whatever measures the stack in
 * its own process (the bench counts each function's DynamoDB calls apart with it).
 */
export const invocation = new AsyncLocalStorage<{ entry: string }>();

/** Invokes `entry` with `event`, failing after `timeoutMs` as Lambda would. */
export async function invoke(
  root: string,
  entry: string,
  event: unknown,
  timeoutMs = 10_000,
): Promise<unknown> {
  const handler = await loadHandler(root, entry);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${entry} timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([
      invocation.run({ entry }, () => handler(event, lambdaContext(entry, timeoutMs))),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
