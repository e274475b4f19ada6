/**
 * A local EventBridge `PutEvents` endpoint. The AWS SDK posts to it through
 * AWS_ENDPOINT_URL_EVENTBRIDGE; each accepted entry is delivered, asynchronously as EventBridge
 * does, to the targets of the shared rule table (shared/events/rules.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { rulesFor } from '../../shared/api/event-rules.ts';
import { invoke } from './lambda.ts';

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

export interface LocalEventBus {
  url: string;
  /** Every delivery attempted so far (newest last), for the start banner and tests. */
  deliveries: Delivery[];
  /** Resolves when every delivery started so far has finished. */
  idle(): Promise<void>;
  /**
   * Makes the bus refuse every PutEvents (503) until called with false: an outage to prove the
   * outbox against. Also reachable as `POST /_local/outage` `{"down": true|false}`.
   */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

const retryDelaysMs = [200, 1000]; // EventBridge retries a failed Lambda target; a short version here

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Starts the bus on 127.0.0.1:`port`; targets are handler modules under `root`. */
export async function startEventBus(
  port: number,
  root: string,
  options: { region: string; onDelivery?: (delivery: Delivery) => void },
): Promise<LocalEventBus> {
  const deliveries: Delivery[] = [];
  const pending = new Set<Promise<void>>();
  let down = false;

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
        await invoke(root, target, event, 30_000);
        delivery.ok = true;
        delete delivery.error;
        break;
      } catch (error) {
        delivery.error = (error as Error).message;
        const delay = retryDelaysMs[attempt];
        if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    deliveries.push(delivery);
    options.onDelivery?.(delivery);
  }

  const server: Server = createServer(async (request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'POST' && request.url === '/_local/outage') {
      try {
        down = (JSON.parse(await readBody(request)) as { down?: unknown }).down === true;
        answer(200, { down });
      } catch {
        answer(400, { message: 'body must be {"down": true|false}' });
      }
      return;
    }
    const target = String(request.headers['x-amz-target'] ?? '');
    if (down) {
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
      entries = (JSON.parse(await readBody(request)) as { Entries?: PutEventsEntry[] }).Entries ?? [];
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
      const eventId = randomUUID();
      for (const rule of rulesFor(String(entry.Source), String(entry.DetailType))) {
        const delivery = deliver(eventId, entry, detail, rule.target);
        pending.add(delivery);
        void delivery.finally(() => pending.delete(delivery));
      }
      return { EventId: eventId };
    });
    const failed = results.filter((result) => 'ErrorCode' in result).length;
    answer(200, { FailedEntryCount: failed, Entries: results });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    deliveries,
    idle: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    setDown: (value) => {
      down = value;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
