/**
 * The keys of the dashboard overview's counters: one item per account, mode and UTC day, one gauge
 * per account and mode, what each counted subscription added to the gauge, and the marker of each
 * event already counted.
 */
import type { Mode } from '../core/account.ts';
import { type ItemKey, scopePrefix } from '../db/keys.ts';

/** The partition of an account's counters in a mode: its days and its gauge, read by one Query and one Get. */
const statsPartition = (developerId: number, mode: Mode) => `${scopePrefix(developerId, mode)}#STATS`;

export const statsKeys = {
  partition: statsPartition,
  /** The counters of one UTC day (`YYYY-MM-DD`): the days sort by date under `DAY#`. */
  day: (developerId: number, mode: Mode, day: string): ItemKey => ({
    pk: statsPartition(developerId, mode),
    sk: `DAY#${day}`,
  }),
  /** The sort key of a day, for a range of days in one Query. */
  daySort: (day: string) => `DAY#${day}`,
  /** What holds now, not per day: active subscriptions and their monthly recurring revenue. */
  gauge: (developerId: number, mode: Mode): ItemKey => ({
    pk: statsPartition(developerId, mode),
    sk: 'GAUGE',
  }),
  /**
   * What one subscription added to the gauge, so its cancellation takes away exactly that (and
   * nothing for one never counted). Its own partition: never read by the overview's Query.
   */
  subscription: (developerId: number, mode: Mode, subscriptionId: string): ItemKey => ({
    pk: `${statsPartition(developerId, mode)}#SUB#${subscriptionId}`,
    sk: 'STATS_SUB',
  }),
  /** That an event was counted (EventBridge may deliver it again): kept a while, then expired. */
  counted: (eventId: string): ItemKey => ({ pk: `STATS_COUNTED#${eventId}`, sk: 'STATS_COUNTED' }),
};
