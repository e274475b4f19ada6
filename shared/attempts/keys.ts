/**
 * The keys of money movements' attempts (docs/design.md#attempts). An attempt is stored, by id,
 * before the acquirer is called. While it is not final it sits in gsi2's sparse recovery index, a due
 * index by the time recovery may take it; every attempt is also listed by the day it was made (gsi1,
 * in `attemptDayShards` partitions a day), which reconciliation reads.
 */
import {
  duePartition,
  dueSlot,
  type ItemKey,
  type ListKey,
  type SecondListKey,
  shardOf,
} from '../db/keys.ts';

/** How many gsi1 partitions a day's attempts are spread over (reconciliation reads each). */
export const attemptDayShards = 8;

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
