/**
 * A merchant's webhook receiver on loopback: records every request, answers with the statuses it
 * is told (200 once the list runs out), and verifies deliveries with the `standardwebhooks` package.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll } from 'vitest';
import { eventually } from './eventually.ts';

export interface Received {
  /** The request's path: tests give each endpoint its own. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of the delivered JSON
  json: Record<string, any>;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Statuses for the next requests to `path`, in order. */
  answer(path: string, ...statuses: number[]): void;
  /** Answers requests to `path` only after `ms` (a slow receiver). */
  delay(path: string, ms: number): void;
  /** Waits (up to `timeoutMs`) until `count` requests matched `where`; answers them (fails if they never came). */
  waitFor(where: (request: Received) => boolean, count?: number, timeoutMs?: number): Promise<Received[]>;
}

/** Starts a receiver, closed after the file's tests. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const statuses = new Map<string, number[]>();
  const delays = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // recorded as is
      }
      received.push({ path: request.url ?? '/', headers: request.headers, body, json, at: Date.now() });
      const wait = delays.get(request.url ?? '/');
      if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
      response.writeHead(statuses.get(request.url ?? '/')?.shift() ?? 200, { 'Content-Type': 'text/plain' });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    delay: (path, ms) => {
      delays.set(path, ms);
    },
    answer: (path, ...next) => {
      statuses.set(path, [...(statuses.get(path) ?? []), ...next]);
    },
    waitFor: (where, count = 1, timeoutMs = 15_000) =>
      eventually(
        `${count} request(s) to the receiver`,
        () => {
          const matching = received.filter(where);
          return matching.length >= count ? matching : undefined;
        },
        { timeout: timeoutMs, interval: 50 },
      ),
  };
}

/** Verifies a delivery with `secret` as a Standard Webhooks receiver does; throws if it does not verify. */
export function verify(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}
