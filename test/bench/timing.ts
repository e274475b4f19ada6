/** Timing a request the benches send again and again: warmed first, then p50/p99 and DynamoDB calls. */

export const ms = (value: number) => `${value.toFixed(2)} ms`;

/** What timing needs of a bench's options: how many requests, and the DynamoDB call counter. */
export interface TimingOptions {
  requests: number;
  calls: () => number;
  resetCalls: () => void;
  percentile: (sorted: number[], p: number) => number;
}

/** Sends `request` 20 times to warm (modules imported, caches filled), then times `options.requests` of them. */
export async function timed(
  options: TimingOptions,
  label: string,
  request: () => Promise<void>,
): Promise<void> {
  for (let i = 0; i < 20; i++) await request();
  options.resetCalls();
  const times: number[] = [];
  for (let i = 0; i < options.requests; i++) {
    const started = performance.now();
    await request();
    times.push(performance.now() - started);
  }
  const calls = options.calls() / options.requests;
  times.sort((a, b) => a - b);
  const p = options.percentile;
  console.log(
    `  ${label}: p50 ${ms(p(times, 50))}, p99 ${ms(p(times, 99))}, ${calls.toFixed(1)} DynamoDB calls per request`,
  );
}
