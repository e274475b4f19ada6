/**
 * The local stack's control server: what tests and the ledger soak switch in a running stack, on
 * 127.0.0.1 only, behind a random token written to `.cobro/local.json` (`control_url`,
 * `control_token`). Nothing like it exists in a deployed stage.
 *
 *   GET    /acquirer/faults   the simulated acquirer's faults still armed
 *   PUT    /acquirer/faults   replaces them: a JSON array of faults (shared/acquirer/faults.ts)
 *   POST   /acquirer/faults   adds one fault
 *   DELETE /acquirer/faults   clears them (`?merchant=ID`: only that merchant's)
 *   POST   /acquirer/faults/take  `{"operation", "merchant", "caller"}`: the fault hitting that
 *                             call, spent (`{"fault": null}` for none); rehearsal functions and
 *                             the operator CLI ask here, `caller` naming them (a function's name,
 *                             `pid N`)
 *   GET    /acquirer/faults/hits  the calls faults hit since the stack started, counted by caller
 *                             (`stack` for the stack's own process), operation, effect and merchant
 *   GET    /pipeline          what the event pipeline did so far (infra/local/pipeline.ts)
 *   POST   /pipeline/drain    answers once everything stored so far, and all it caused, has gone
 *                             through the pipeline: `{"developer_id": N}` for one account's,
 *                             `"timeout_ms"` (default 30 s) before it gives up with 504
 *
 * The handlers run in the stack's own process, so the faults set here are the ones the simulated
 * acquirer of every function sees (processFaults); rehearsal functions, each in a worker of its own,
 * and the operator CLI's runs (billing, payouts, reconcile), each a process of its own, ask for them
 * through `/acquirer/faults/take`, so one registry counts every call either way.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import * as v from 'valibot';
import {
  type AcquirerFault,
  acquirerOperations,
  faultEffects,
  processFaults,
} from '../../shared/acquirer/faults.ts';
import { drainPipeline, type LocalPipeline, pipelineState } from './pipeline.ts';
import { listenOnLoopback, readBody } from './server.ts';

const TakeSchema = v.strictObject({
  operation: v.picklist(acquirerOperations),
  merchant: v.pipe(v.number(), v.integer()),
  caller: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(1000))),
});

export const FaultSchema = v.strictObject({
  operation: v.picklist(acquirerOperations),
  effect: v.picklist(faultEffects),
  delayMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(120_000))),
  merchant: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

export const DrainSchema = v.strictObject({
  developer_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  timeout_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(120_000))),
});

export interface LocalControl {
  url: string;
  token: string;
  close(): Promise<void>;
}

const maxBody = 64 * 1024;

function authorized(request: IncomingMessage, token: string): boolean {
  const given = Buffer.from(String(request.headers.authorization ?? ''));
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Starts the control server on 127.0.0.1:`port` (0: any free one). `pipeline` answers the stack's
 * event pipeline once it runs (the server starts before it).
 */
export async function startControl(
  port: number,
  pipeline: () => LocalPipeline | undefined = () => undefined,
): Promise<LocalControl> {
  const token = randomBytes(24).toString('base64url');
  const server: Server = createServer(async (request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    try {
      if (!authorized(request, token)) return answer(401, { error: 'a Bearer control_token is required' });
      const url = new URL(request.url ?? '/', 'http://control');
      if (url.pathname === '/pipeline' || url.pathname === '/pipeline/drain') {
        const running = pipeline();
        if (!running) return answer(503, { error: 'the event pipeline is still starting' });
        if (url.pathname === '/pipeline') {
          if (request.method !== 'GET') return answer(405, { error: 'method' });
          return answer(200, pipelineState(running));
        }
        if (request.method !== 'POST') return answer(405, { error: 'method' });
        const body: unknown = JSON.parse((await readBody(request, maxBody)).toString('utf8') || '{}');
        // valibot's object schemas take an array as an object with no keys.
        if (Array.isArray(body)) return answer(400, { error: 'the body is a JSON object' });
        const parsed = v.safeParse(DrainSchema, body);
        if (!parsed.success)
          return answer(400, { error: parsed.issues.map((issue) => issue.message).join('; ') });
        const timeoutMs = parsed.output.timeout_ms ?? 30_000;
        const signal = AbortSignal.timeout(timeoutMs);
        try {
          const rounds = await drainPipeline(running, {
            ...(parsed.output.developer_id === undefined ? {} : { developerId: parsed.output.developer_id }),
            signal,
          });
          return answer(200, { rounds });
        } catch (error) {
          if (!signal.aborted) return answer(503, { error: (error as Error).message });
          return answer(504, { error: `the event pipeline was not drained within ${timeoutMs} ms` });
        }
      }
      if (url.pathname === '/acquirer/faults/take') {
        // A rehearsal function's simulated acquirer, asking whether its call is hit (and spending it).
        if (request.method !== 'POST') return answer(405, { error: 'method' });
        const body: unknown = JSON.parse((await readBody(request, maxBody)).toString('utf8') || '{}');
        const parsed = v.safeParse(TakeSchema, body);
        if (!parsed.success)
          return answer(400, { error: parsed.issues.map((issue) => issue.message).join('; ') });
        const { operation, merchant, caller } = parsed.output;
        return answer(200, { fault: processFaults.take(operation, merchant, caller ?? 'remote') ?? null });
      }
      if (url.pathname === '/acquirer/faults/hits') {
        if (request.method !== 'GET') return answer(405, { error: 'method' });
        // The stack's own calls (its handlers share this registry) are counted as the stack's.
        return answer(200, {
          hits: processFaults.hits().map((hits) => ({ ...hits, caller: hits.caller ?? 'stack' })),
        });
      }
      if (url.pathname !== '/acquirer/faults') return answer(404, { error: 'no such control' });
      if (request.method === 'GET') return answer(200, { faults: processFaults.list() });
      if (request.method === 'DELETE') {
        const merchant = url.searchParams.get('merchant');
        processFaults.clear(merchant === null ? undefined : Number(merchant));
        return answer(200, { faults: processFaults.list() });
      }
      if (request.method !== 'PUT' && request.method !== 'POST') return answer(405, { error: 'method' });
      const parsed = v.safeParse(
        request.method === 'PUT' ? v.array(FaultSchema) : FaultSchema,
        JSON.parse((await readBody(request, maxBody)).toString('utf8') || 'null'),
      );
      if (!parsed.success)
        return answer(400, { error: parsed.issues.map((issue) => issue.message).join('; ') });
      if (Array.isArray(parsed.output)) processFaults.set(parsed.output as AcquirerFault[]);
      else processFaults.add(parsed.output as AcquirerFault);
      return answer(200, { faults: processFaults.list() });
    } catch (error) {
      return answer(400, { error: (error as Error).message });
    }
  });
  const bound = await listenOnLoopback(server, port);
  return {
    url: `http://127.0.0.1:${bound}`,
    token,
    close: () =>
      new Promise((resolve) => {
        processFaults.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
