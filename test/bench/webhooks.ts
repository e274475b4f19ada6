/**
 * The delivery pipeline end to end on the local stack: an event item stored in the table → the
 * stream → relay → bus → fan-out (a task) → stream → relay → bus → delivery → a loopback receiver.
 * Prints the stored → received latency of sequential events (p50, p99), and deliveries per second
 * when many events are stored at once.
 */
import { createServer } from 'node:http';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { apiKeyRotated } from '../../shared/accounts/events.ts';
import { putAll } from '../../shared/db/batch.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { eventItem } from '../../shared/events/event.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';
import { registerEndpoint } from '../../shared/webhooks/service.ts';

export async function benchWebhooks(options: {
  deps: Deps;
  developerId: number;
  apiUrl: string;
  testKey: string;
  sequential: number;
  burst: number;
  percentile: (sorted: number[], p: number) => number;
}): Promise<void> {
  const { deps, developerId, percentile } = options;
  const arrivals = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      arrivals.set(id, performance.now());
      waiting.get(id)?.();
      response.writeHead(200);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const scope = { developerId, mode: 'test' as const };
  await registerEndpoint({ ...deps, secrets: secretBox() }, scope, {
    url: `http://127.0.0.1:${port}/`,
    events: ['*'],
    description: 'bench',
  });
  const event = () =>
    apiKeyRotated.of(
      { developerId, mode: 'test' },
      { type: 'test', key: 'sk_test_…abcd', created_at: new Date().toISOString() },
      new Date(),
    );
  const received = (id: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`event ${id} not received within 30 s`)), 30_000);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });

  const latencies: number[] = [];
  for (let i = 0; i < options.sequential + 5; i++) {
    const detail = event();
    const arrived = received(detail.id);
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: eventItem(detail) }));
    const stored = performance.now();
    await arrived;
    if (i >= 5) latencies.push((arrivals.get(detail.id) ?? Number.NaN) - stored); // 5 to warm up
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `webhook delivery, event stored → received by a loopback receiver (${options.sequential} sequential)`,
  );
  console.log(
    `  p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms   max ${latencies.at(-1)?.toFixed(1)} ms`,
  );

  const burst = Array.from({ length: options.burst }, event);
  const all = Promise.all(burst.map((detail) => received(detail.id)));
  const start = performance.now();
  await putAll(deps, burst.map(eventItem));
  await all;
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `  ${options.burst} events stored at once: all received in ${seconds.toFixed(2)} s = ${(options.burst / seconds).toFixed(0)} deliveries/s`,
  );
  await new Promise<void>((resolve) => server.close(() => resolve()));

  // The events list counts with a COUNT query over 30 days (no counter item: TTL removes events).
  const listed = async (query: string) => {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < 55; i++) {
      const start = performance.now();
      const response = await fetch(`${options.apiUrl}/v1/events/${query}`, {
        headers: { Authorization: `Api-Key ${options.testKey}` },
      });
      const body = (await response.json()) as { count: number };
      if (i >= 5) times.push(performance.now() - start); // 5 to warm up
      count = body.count;
    }
    times.sort((a, b) => a - b);
    return { count, p50: percentile(times, 50), p99: percentile(times, 99) };
  };
  for (const query of ['', '?type=api_key.rotated', '?page=50&page_size=10']) {
    const result = await listed(query);
    console.log(
      `  GET /v1/events/${query} over ${result.count} events: p50 ${result.p50.toFixed(1)} ms   p99 ${result.p99.toFixed(1)} ms`,
    );
  }
}
