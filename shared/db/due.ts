/**
 * The due indexes (subscription billing, recurring payment links, webhook retries, attempt recovery):
 * one item per record with work ahead, in `dueShards` partitions, sorted by due time
 * (`<ISO time>#<id>`), so a run reads what is due by Query, never by Scan. `dueEntries` is the one
 * reader of them all. A scheduled run works one partition per invocation (the partition it is
 * handed), so a run grows out with the shard count rather than up; the CLI reads them all at once.
 */
import { eachInLanes } from '../core/lanes.ts';
import { logger } from '../core/log.ts';
import type { Deps } from './deps.ts';
import { queryEach } from './items.ts';
import { dueShards } from './keys.ts';

/** Which partitions of a due index a run reads: one (a scheduled worker's), or all when unset. */
export type DueShard = number | undefined;

/** The shard numbers a run reads: `shard` alone, or every one of `dueShards`. */
export function shardsOf(shard: DueShard): number[] {
  if (shard === undefined) return Array.from({ length: dueShards }, (_, each) => each);
  if (!Number.isInteger(shard) || shard < 0 || shard >= dueShards)
    throw new RangeError(`a due index has partitions 0 to ${dueShards - 1}, not ${shard}`);
  return [shard];
}

/**
 * The entries due at `now` (at most `limit` per shard), oldest first within a shard, of the one
 * partition `shard` or of all. An index keyed by the table's own `pk`/`sk` by default;
 * `index: 'gsi2'` for one kept in gsi2 (attempts).
 */
export async function dueEntries<T>(
  deps: Deps,
  partitionOf: (shard: number) => string,
  now: Date,
  limit: number,
  index?: 'gsi2',
  shard?: DueShard,
): Promise<T[]> {
  const [pk, sk] = index ? ['gsi2pk', 'gsi2sk'] : ['pk', 'sk'];
  const found = await Promise.all(
    shardsOf(shard).map(async (each) => {
      const entries: T[] = [];
      await queryEach(
        deps,
        {
          ...(index ? { IndexName: index } : {}),
          // `~` sorts after `#<id>`: an entry due at exactly `now` is due.
          KeyConditionExpression: `${pk} = :pk AND ${sk} <= :until`,
          ExpressionAttributeValues: { ':pk': partitionOf(each), ':until': `${now.toISOString()}~` },
        },
        (item) => {
          entries.push(item as T);
          return entries.length < limit;
        },
        () => limit - entries.length,
      );
      return entries;
    }),
  );
  return found.flat();
}

/** Which part of a run an invocation does: its one partition (all when unset), until `stop`. */
export interface RunPart {
  shard?: DueShard;
  stop?: StopWhen;
}

/** Entries read per shard at a time, and steps run at once. */
const pageLimit = 1_000;
const lanes = 16;

/**
 * Whether a run should stop taking entries (its invocation is running out of time). What it leaves
 * stays due; the run's caller hands the rest on.
 */
export type StopWhen = () => boolean;

/**
 * Runs `step` on every entry due (of `account` alone when given), 16 at a time, counting its outcomes
 * into `outcomes`; answers how many entries it took. The index is read again after each page until
 * nothing due is left that this run can move: an outcome other than `raced` (another runner took
 * the entry) has moved its entry on, and a page in which nothing moved ends the run. A step that
 * throws is counted as `failed` and logged with the entry's id (`id`); its entry stays due, so the
 * next run tries it again, and this run leaves it alone and goes on with the rest. An outcome in
 * `parked` (the acquirer gave no answer: recovery owns the entry now) leaves its entry due, but this
 * run does not step it again: an acquirer that keeps losing answers would otherwise be asked again
 * on every pass, as long as the run lasts. Once `stop` answers true no new step starts (those
 * running finish) and the run ends, the rest left due.
 */
export async function stepEveryDue<R extends { developer_id: number }, O extends string>(
  read: (limit: number) => Promise<R[]>,
  step: (entry: R) => Promise<O | 'raced'>,
  outcomes: Record<O | 'raced' | 'failed', number>,
  id: { name: string; of: (entry: R) => string },
  account?: { developerId: number },
  stop: StopWhen = () => false,
  parked: readonly O[] = [],
): Promise<number> {
  /** Entries this run does not step again: their step threw, or left them to recovery. */
  const setAside = new Set<string>();
  const mine = (entry: R) =>
    (!account || entry.developer_id === account.developerId) && !setAside.has(id.of(entry));
  let seen = 0;
  for (;;) {
    const due = (await read(pageLimit)).filter(mine);
    if (due.length === 0) return seen;
    let moved = 0;
    await eachInLanes(due, lanes, async (entry) => {
      if (stop()) return;
      seen += 1;
      let outcome: O | 'raced';
      try {
        outcome = await step(entry);
      } catch (error) {
        setAside.add(id.of(entry));
        outcomes.failed += 1;
        logger.error('a billing step failed; the next run tries it again', {
          [id.name]: id.of(entry),
          error: error as Error,
        });
        return;
      }
      outcomes[outcome] += 1;
      if (outcome === 'raced') return;
      if (parked.includes(outcome)) setAside.add(id.of(entry));
      else moved += 1;
    });
    if (moved === 0 || stop()) return seen;
    if (due.length < pageLimit && !(await read(1)).some(mine)) return seen;
  }
}
