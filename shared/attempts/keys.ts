/**
 * The keys of money movements' attempts (docs/design.md#attempts). An attempt is stored, by id,
 * before the acquirer is called. While it is not final it sits in gsi2's sparse recovery index, a due
 * index by the time recovery may take it; every attempt is also listed by the day it was made (gsi1,
 * in `attemptDayShards` partitions a day), which reconciliation reads.
 */
import {
  duePartition,
  dueShards,
  dueSlot,
  type ItemKey,
  type ListKey,
  type SecondListKey,
  shardOf,
} from '../db/keys.ts';

/** How many gsi1 partitions a day's attempts are spread over (reconciliation reads each). */
export const attemptDayShards = 8;

/**
 * The partition of the recovery index an attempt's entry sits in, which is also the partition a
 * fanned-out reconciliation checks it in.
 */
export const attemptPartition = (attemptId: string) => shardOf(attemptId, dueShards);

/**
 * The day-list shards that can hold attempts of recovery partition `partition`: those congruent to
 * it when the day shards are a multiple of the due shards (a sum modulo 8, taken modulo 4, is the
 * sum modulo 4), else every one.
 */
export const dayShardsOfPartition = (partition: number): number[] =>
  Array.from({ length: attemptDayShards }, (_, shard) => shard).filter(
    (shard) => attemptDayShards % dueShards !== 0 || shard % dueShards === partition,
  );

export const attemptKeys = {
  attempt: (attemptId: string): ItemKey => ({ pk: `ATTEMPT#${attemptId}`, sk: 'ATTEMPT' }),
  recovery: (attemptId: string, recoverAt: string): SecondListKey => {
    const { partition, sort } = dueSlot('ATTEMPT', attemptId, recoverAt);
    return { gsi2pk: partition, gsi2sk: sort };
  },
  recoveryPartition: (shard: number) => duePartition('ATTEMPT', shard),
  ofDay: (attemptId: string, createdAt: string): ListKey => ({
    gsi1pk: `ATTEMPTS#${createdAt.slice(0, 10)}#${shardOf(attemptId, attemptDayShards)}`,
    gsi1sk: `${createdAt}#${attemptId}`,
  }),
  dayPartition: (day: string, shard: number) => `ATTEMPTS#${day}#${shard}`,
};
