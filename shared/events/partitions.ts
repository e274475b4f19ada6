/**
 * Scheduled runs that fan out: a run over a due index (billing, recovery, reconciliation) is not one
 * invocation walking every partition, but one bus entry per partition, each delivered by its rule to a
 * worker that does that partition alone. The schedule's function is only the dispatcher
 * (handOutPartitions); the worker wraps its work in runPartition. These entries carry work, not news:
 * their source is cobro's own, no event of the catalogue has their type, so they are never stored,
 * listed by the events API nor sent to a webhook.
 *
 * A worker delivered twice for the same partition and tick (a retry, a schedule retried after a
 * partial hand-out) does no double work: every step it takes is conditioned on the record it moves,
 * as when two runs overlap.
 */
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { logger } from '../core/log.ts';
import { dueShards } from '../db/keys.ts';
import { type BusPublisher, putEventsBatch } from './publish.ts';

/** The `source` of partition work entries: only cobro's own rules match it. */
export const partitionSource = 'cobro.partitions';

/** The detail-type of each fanned-out run's entries. */
export const partitionRuns = {
  billing: 'billing.partition.due',
  recovery: 'recovery.partition.due',
  reconciliation: 'reconciliation.partition.due',
} as const;

export type PartitionRun = (typeof partitionRuns)[keyof typeof partitionRuns];

/** The detail of a partition entry. */
export interface PartitionDue {
  /** The shard of the due index the worker does (0 to dueShards - 1). */
  partition: number;
  /** The tick the entry belongs to: every partition of one tick, and any hand-on, share it. */
  runId: string;
  /** The time the run works at (the tick's). */
  at: string;
  /** Only this account's records (the operator's `--account`); every account when absent. */
  developer_id?: number;
  /** 0 for the dispatcher's entry; one more each time a worker hands its unfinished partition on. */
  round: number;
}

const detailSchema = v.object({
  partition: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(dueShards - 1)),
  runId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  at: v.pipe(v.string(), v.isoTimestamp()),
  developer_id: v.optional(v.pipe(v.number(), v.integer())),
  round: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
});

/** A received entry's detail, checked: a malformed one throws (and lands in the rule's dead letters). */
export const readPartitionDue = (detail: unknown): PartitionDue => v.parse(detailSchema, detail);

/** What the dispatcher is given: the tick's time and id, and an account when only one is run. */
export interface Tick {
  at: Date;
  runId?: string;
  developerId?: number;
}

/**
 * The entries of a tick: one per partition of the due indexes (dueShards of them), or of the given
 * partitions.
 */
export function partitionEntries(
  type: PartitionRun,
  tick: Tick,
  partitions: readonly number[] = Array.from({ length: dueShards }, (_, shard) => shard),
) {
  const runId = tick.runId ?? randomUUID();
  return partitions.map((partition) => ({
    source: partitionSource,
    type,
    detail: {
      partition,
      runId,
      at: tick.at.toISOString(),
      ...(tick.developerId === undefined ? {} : { developer_id: tick.developerId }),
      round: 0,
    } satisfies PartitionDue,
  }));
}

/**
 * The dispatcher: puts one entry per partition of `type` on the bus; answers the tick's run id and
 * how many partitions were handed out. An entry the bus refuses throws, so the schedule tries the
 * tick again: partitions handed out twice do their work once.
 */
export async function handOutPartitions(
  bus: BusPublisher,
  type: PartitionRun,
  tick: Tick,
): Promise<{ runId: string; partitions: number }> {
  const entries = partitionEntries(type, tick);
  for (let start = 0; start < entries.length; start += putEventsBatch) {
    const refused = await bus.send(entries.slice(start, start + putEventsBatch));
    if (refused >= 0)
      throw new Error(
        `the bus refused the ${type} entry of partition ${start + refused}; the tick is retried`,
      );
  }
  return { runId: entries[0]?.detail.runId ?? '', partitions: entries.length };
}

/** Time a worker keeps for the step it is in when it stops taking new ones. */
export const handOnMarginMs = 10_000;

/** What a worker's invocation tells runPartition: how long it has left (Lambda's context). */
export interface Invocation {
  getRemainingTimeInMillis(): number;
}

/**
 * A worker: runs `work` on one partition until done or until its invocation has `handOnMarginMs`
 * left; then hands the partition on (the same entry, `round` + 1) to a fresh invocation, which goes
 * on with what is still due. Logs the partition's summary as one line (unless `logIf` says it is
 * not worth a line) and answers it, with its start and end times.
 */
export async function runPartition<S extends object>(
  deps: { bus: BusPublisher; clock: () => Date },
  type: PartitionRun,
  due: PartitionDue,
  invocation: Invocation | undefined,
  work: (stop: () => boolean) => Promise<S>,
  logIf: (summary: S) => boolean = () => true,
) {
  const startedAt = deps.clock().toISOString();
  const stop = () => (invocation ? invocation.getRemainingTimeInMillis() < handOnMarginMs : false);
  const summary = await work(stop);
  const handedOn = stop();
  if (handedOn) {
    const next = { ...due, round: due.round + 1 } satisfies PartitionDue;
    if ((await deps.bus.send([{ source: partitionSource, type, detail: next }])) >= 0)
      throw new Error(`the bus refused the hand-on of ${type} partition ${due.partition}`);
  }
  const line = {
    type,
    partition: due.partition,
    run_id: due.runId,
    at: due.at,
    round: due.round,
    ...(due.developer_id === undefined ? {} : { developer_id: due.developer_id }),
    ...summary,
    handed_on: handedOn,
    started_at: startedAt,
    finished_at: deps.clock().toISOString(),
  };
  if (handedOn || logIf(summary)) logger.info('partition run', line);
  return line;
}
