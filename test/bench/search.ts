/**
 * The case-insensitive substring searches (docs/design.md#search: plan `name`, product `search`,
 * customer `search`) at several account sizes: p50 through the local gateway, DynamoDB calls and
 * read units per request. Records and their index entries are written straight to the table (what
 * the API would write, built by the same repository code), 25 per BatchWriteItem on several
 * connections at once.
 *
 * In every account one record in 100 carries the word "Zephyr" (so that search matches 1% of the
 * account), and every record carries a six-digit serial, so a search for one serial matches one
 * record whatever the account's size.
 */
import type { Scope } from '../../shared/core/account.ts';
import { putAll } from '../../shared/db/batch.ts';
import type { Deps } from '../../shared/db/deps.ts';

/** What one kind of record needs in order to be benchmarked. */
export interface SearchSubject {
  /** What --search-subjects calls it: plans, customers, products. */
  name: string;
  /** e.g. "plans ?name=" */
  label: string;
  /** The items (record, index entries, counters) of `count` records of the account, record i with serial i. */
  items(scope: Scope, count: number): Iterable<Record<string, unknown>>;
  /** Items written after all records (counters). */
  after?(scope: Scope, count: number): Promise<void>;
  /** The request path of a search for `query`, page 1 of 10. */
  path(query: string): string;
  /** How many records an answer says it matched. */
  matched(body: unknown): number;
}

export const serial = (i: number) => String(i).padStart(6, '0');
export const isZephyr = (i: number) => i % 100 === 0;

export interface Meter {
  reset(): void;
  calls(): number;
  units(): number;
}

/**
 * For each size: a new account, `size` records seeded, then `requests` sequential searches of
 * each query; prints p50, p99, calls and read units per request, and matches.
 */
export async function benchSearches(options: {
  deps: Deps;
  apiUrl: string;
  newAccount: (label: string) => Promise<{ scope: Scope; auth: string }>;
  subjects: SearchSubject[];
  sizes: number[];
  requests: number;
  meter: Meter;
  timed: (n: number, fn: () => Promise<void>) => Promise<number[]>;
  percentile: (sorted: number[], p: number) => number;
}): Promise<void> {
  const { deps, meter, requests, percentile } = options;
  const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
  console.log(`substring searches, page 1 of 10, ${requests} sequential requests each`);
  console.log(
    '  search                 records   query         p50         p99    calls/req  RCU/req  matches   seed (items, s)',
  );
  for (const subject of options.subjects) {
    for (const size of options.sizes) {
      const { scope, auth } = await options.newAccount(`${subject.label}-${size}`);
      const started = performance.now();
      const items = await putAll(deps, subject.items(scope, size));
      await subject.after?.(scope, size);
      const seedSeconds = (performance.now() - started) / 1000;
      for (const [label, query] of [
        ['1% (zephyr)', 'zephyr'],
        ['one serial', serial(Math.floor(size / 2))],
      ] as const) {
        const url = `${options.apiUrl}${subject.path(query)}`;
        let matches = 0;
        const search = async () => {
          const response = await fetch(url, { headers: { Authorization: auth } });
          if (response.status !== 200)
            throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
          matches = subject.matched(await response.json());
        };
        await options.timed(5, search);
        meter.reset();
        const samples = await options.timed(requests, search);
        console.log(
          `  ${subject.label.padEnd(22)} ${String(size).padStart(7)}   ${label.padEnd(12)} ${fmt(percentile(samples, 50)).padStart(10)} ${fmt(percentile(samples, 99)).padStart(11)}   ${(meter.calls() / requests).toFixed(2).padStart(7)}  ${(meter.units() / requests).toFixed(1).padStart(7)}  ${String(matches).padStart(7)}   ${items} in ${seedSeconds.toFixed(0)}`,
        );
      }
    }
  }
  console.log('');
}
