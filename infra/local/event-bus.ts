/**
 * A local EventBridge `PutEvents` endpoint. The AWS SDK posts to it through
 * AWS_ENDPOINT_URL_EVENTBRIDGE; each accepted entry is delivered, asynchronously as EventBridge
 * does, to the targets of the shared rule table (shared/api/event-rules.ts).
 *
 * Faults to prove the outbox against, set by `POST /_local/outage` with a JSON object naming any of
 * these settings (the ones it does not name stay as they are; `GET /_local/outage` shows them):
 * - `down`: true refuses every PutEvents call (503) until set back to false;
 * - `fail_entries`: the next N entries are refused (ErrorCode `InternalFailure`, nothing delivered)
 *   while the others of the same call are taken: a partial failure, as EventBridge answers one;
 * - `fail_detail`: only entries whose detail has all these top-level values (`{"developer_id": 7}`)
 *   are refused and counted by `fail_entries`, so a test on the shared stack refuses only its own
 *   account's events; null: any entry.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { rulesFor } from '../../shared/api/event-rules.ts';
import { type Invoker, inProcess } from './lambda.ts';
import { listenOnLoopback, readBody } from './server.ts';

interface PutEventsEntry {
  Source?: string;
  DetailType?: string;
  Detail?: string;
  EventBusName?: string;
  Time?: number | string;
  Resources?: string[];
}

export interface Delivery {
  eventId: string;
  detailType: string;
  target: string;
  ok: boolean;
  attempts: number;
  error?: string;
}

/** The faults in force (see the module comment). */
export interface Outage {
  down: boolean;
  /** Entries still to refuse. */
  fail_entries: number;
  /** Detail values an entry must have to be refused; null: any entry. */
  fail_detail: Record<string, string | number | boolean> | null;
}

export interface LocalEventBus {
  url: string;
  /** Resolves when no delivery is running (on a busy bus that may take long: see settled). */
  idle(): Promise<void>;
  /**
   * Resolves when every delivery started before the call has finished, its retries included;
   * deliveries started later are not waited for.
   */
  settled(): Promise<void>;
  /** Deliveries running now. */
  inFlight(): number;
  /**
   * Makes the bus refuse every PutEvents (503) until called with false: an outage to prove the
   * outbox against. Also reachable as `POST /_local/outage` `{"down": true|false}`.
   */
  setDown(down: boolean): void;
  /** Changes the settings named (as `POST /_local/outage` does); answers those in force. */
  setOutage(change: Partial<Outage>): Outage;
  close(): Promise<void>;
}

const retryDelaysMs = [200, 1000]; // EventBridge retries a failed Lambda target; a short version here

const outageUsage =
  'body must be a JSON object naming one or more of {"down": true|false, "fail_entries": N, ' +
  '"fail_detail": {"field": value, …} | null} (values strings, numbers or booleans)';

/**
 * The settings a `POST /_local/outage` body names, or undefined when it is not an object naming at
 * least one of them, names another field, or gives one a value of the wrong kind: nothing changes then.
 */
export function outageChange(body: unknown): Partial<Outage> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const fields = body as Record<string, unknown>;
  const names = Object.keys(fields);
  if (names.length === 0 || names.some((name) => !['down', 'fail_entries', 'fail_detail'].includes(name))) {
    return undefined;
  }
  const change: Partial<Outage> = {};
  if ('down' in fields) {
    if (typeof fields.down !== 'boolean') return undefined;
    change.down = fields.down;
  }
  if ('fail_entries' in fields) {
    const count = fields.fail_entries;
    if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return undefined;
    change.fail_entries = count;
  }
  if ('fail_detail' in fields) {
    const detail = fields.fail_detail;
    if (detail === null) change.fail_detail = null;
    else if (typeof detail !== 'object' || Array.isArray(detail)) return undefined;
    else {
      const values = Object.values(detail as Record<string, unknown>);
      if (values.length === 0) return undefined;
      if (values.some((value) => !['string', 'number', 'boolean'].includes(typeof value))) return undefined;
      change.fail_detail = { ...(detail as NonNullable<Outage['fail_detail']>) };
    }
  }
  return change;
}

/** Whether an entry's detail has every value of `where` (any detail, when `where` is null). */
function detailMatches(detail: unknown, where: Outage['fail_detail']): boolean {
  if (where === null) return true;
  if (typeof detail !== 'object' || detail === null) return false;
  return Object.entries(where).every(([name, value]) => (detail as Record<string, unknown>)[name] === value);
}

/** Starts the bus on 127.0.0.1:`port`; targets are handler modules under `root`. */
export async function startEventBus(
  port: number,
  root: string,
  options: {
    region: string;
    onDelivery?: (delivery: Delivery) => void;
    /** Runs the targets. @default the handler modules under `root`, in this process */
    invoke?: Invoker;
    /** The targets of an event. @default the shared rule table's */
    targetsFor?: (source: string, detailType: string) => string[];
  },
): Promise<LocalEventBus> {
  const invoke = options.invoke ?? inProcess(root);
  const targetsFor =
    options.targetsFor ??
    ((source: string, detailType: string) => rulesFor(source, detailType).map((rule) => rule.target));
  const pending = new Set<Promise<void>>();
  const outage: Outage = { down: false, fail_entries: 0, fail_detail: null };
  const setOutage = (change: Partial<Outage>): Outage => {
    Object.assign(outage, change);
    return { ...outage };
  };

  async function deliver(eventId: string, entry: PutEventsEntry, detail: unknown, target: string) {
    const event = {
      version: '0',
      id: eventId,
      'detail-type': entry.DetailType,
      source: entry.Source,
      account: '000000000000',
      time: new Date(
        typeof entry.Time === 'number' ? entry.Time * 1000 : (entry.Time ?? Date.now()),
      ).toISOString(),
      region: options.region,
      resources: entry.Resources ?? [],
      detail,
    };
    const delivery: Delivery = {
      eventId,
      detailType: String(entry.DetailType),
      target,
      ok: false,
      attempts: 0,
    };
    for (let attempt = 0; attempt <= retryDelaysMs.length; attempt++) {
      delivery.attempts = attempt + 1;
      try {
        await invoke(target, event, 30_000);
        delivery.ok = true;
        delete delivery.error;
        break;
      } catch (error) {
        delivery.error = (error as Error).message;
        const delay = retryDelaysMs[attempt];
        if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    // Reported, not kept: recovery alone delivers partition entries every two seconds, for as long
    // as the stack runs.
    options.onDelivery?.(delivery);
  }

  const server: Server = createServer(async (request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify(body));
    };
    if (request.url === '/_local/outage') {
      if (request.method === 'GET') {
        answer(200, outage);
        return;
      }
      if (request.method !== 'POST') {
        answer(405, { message: 'GET or POST /_local/outage' });
        return;
      }
      let change: Partial<Outage> | undefined;
      try {
        change = outageChange(JSON.parse((await readBody(request)).toString('utf8')));
      } catch {
        change = undefined;
      }
      if (change) answer(200, setOutage(change));
      else answer(400, { message: outageUsage });
      return;
    }
    const target = String(request.headers['x-amz-target'] ?? '');
    if (outage.down) {
      answer(503, { __type: 'ServiceUnavailableException', message: 'the local bus is down (outage)' });
      return;
    }
    if (request.method !== 'POST' || target !== 'AWSEvents.PutEvents') {
      answer(400, {
        __type: 'UnknownOperationException',
        message: `only PutEvents is emulated, not ${target}`,
      });
      return;
    }
    let entries: PutEventsEntry[];
    try {
      entries =
        (JSON.parse((await readBody(request)).toString('utf8')) as { Entries?: PutEventsEntry[] }).Entries ??
        [];
    } catch {
      answer(400, { __type: 'SerializationException', message: 'body is not JSON' });
      return;
    }
    const results = entries.map((entry) => {
      let detail: unknown;
      try {
        detail = JSON.parse(entry.Detail ?? '');
      } catch {
        return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is not valid JSON' };
      }
      // An armed refusal takes the entry instead of delivering it; the call's other entries go on.
      if (outage.fail_entries > 0 && detailMatches(detail, outage.fail_detail)) {
        outage.fail_entries -= 1;
        return {
          ErrorCode: 'InternalFailure',
          ErrorMessage: 'the local bus refused this entry (fail_entries)',
        };
      }
      const eventId = randomUUID();
      for (const target of targetsFor(String(entry.Source), String(entry.DetailType))) {
        const delivery = deliver(eventId, entry, detail, target);
        pending.add(delivery);
        void delivery.finally(() => pending.delete(delivery));
      }
      return { EventId: eventId };
    });
    const failed = results.filter((result) => 'ErrorCode' in result).length;
    answer(200, { FailedEntryCount: failed, Entries: results });
  });

  const actualPort = await listenOnLoopback(server, port);
  return {
    url: `http://127.0.0.1:${actualPort}`,
    idle: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    // The deliveries are taken when called, not when first awaited.
    settled: () => Promise.allSettled([...pending]).then(() => undefined),
    inFlight: () => pending.size,
    setDown: (value) => {
      outage.down = value;
    },
    setOutage,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
