/**
 * The keys of webhooks: endpoints (`we_…`) and their counted list; in each endpoint's partition its
 * delivery tasks (one per event and round of sending) and its deliveries, so an endpoint and its work
 * are read together; the retry index, redelivery counters and dead letters.
 */
import type { Mode } from '../core/account.ts';
import {
  countedListKeys,
  duePartition,
  dueSlot,
  type ItemKey,
  type ListKey,
  type SecondListKey,
  scopePrefix,
} from '../db/keys.ts';

const endpoints = countedListKeys('WEBHOOK_ENDPOINTS', 'WEBHOOK_ENDPOINT');
const endpointPartition = (developerId: number, mode: Mode, endpointId: string) =>
  `${scopePrefix(developerId, mode)}#WEBHOOK_ENDPOINT#${endpointId}`;
const deliveries = (developerId: number, mode: Mode, endpointId: string) =>
  `${endpointPartition(developerId, mode, endpointId)}#DELIVERIES`;

export const webhookKeys = {
  endpoint: (developerId: number, mode: Mode, endpointId: string): ItemKey => ({
    pk: endpointPartition(developerId, mode, endpointId),
    sk: 'WEBHOOK_ENDPOINT',
  }),
  endpointInList: endpoints.inList,
  endpointCount: endpoints.count,
  endpointListTag: endpoints.tag,
  /** Sending one event to one endpoint (`round` 0 first, a new one per redelivery). */
  task: (developerId: number, mode: Mode, endpointId: string, eventId: string, round: string): ItemKey => ({
    pk: endpointPartition(developerId, mode, endpointId),
    sk: `TASK#${eventId}#${round}`,
  }),
  /** A task waiting for its next attempt, in the webhook due index (gsi2), by due time. */
  taskDue: (taskId: string, dueAt: string): SecondListKey => {
    const { partition, sort } = dueSlot('WEBHOOK', taskId, dueAt);
    return { gsi2pk: partition, gsi2sk: sort };
  },
  taskDuePartition: (shard: number) => duePartition('WEBHOOK', shard),
  /**
   * A claimed task's gsi2 sort key while its lease runs: the shard (gsi2pk) stays and the entry
   * moves to the lease's end, after which the sweep finds it again. Claims write the task's own
   * sort key (`TASK#…`) after the time, not its id as `taskDue` does; both sort by time first.
   */
  leasedDue: (leaseUntil: string, taskSortKey: string) => `${leaseUntil}#${taskSortKey}`,
  /** One attempt of a task, listed under its endpoint (`GET …/deliveries/`), newest first. */
  deliveryInList: (
    developerId: number,
    mode: Mode,
    endpointId: string,
    createdAt: string,
    deliveryId: string,
  ): ItemKey & ListKey => ({
    pk: endpointPartition(developerId, mode, endpointId),
    sk: `DELIVERY#${createdAt}#${deliveryId}`,
    gsi1pk: deliveries(developerId, mode, endpointId),
    gsi1sk: `DELIVERY#${createdAt}#${deliveryId}`,
  }),
  /** How many attempts an endpoint has; sorts after them in gsi1, as a counted list's count does. */
  deliveryCount: (developerId: number, mode: Mode, endpointId: string): ItemKey & ListKey => ({
    pk: endpointPartition(developerId, mode, endpointId),
    sk: 'DELIVERY~COUNT',
    gsi1pk: deliveries(developerId, mode, endpointId),
    gsi1sk: 'DELIVERY~COUNT',
  }),
  deliveryListTag: 'DELIVERY',
  /**
   * How many times events were sent again in the current hour (a window counter, db/window.ts): of
   * one event, or, without one, of the account and mode as a whole.
   */
  redeliveryCounter: (developerId: number, mode: Mode, eventId?: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#REDELIVERIES`,
    sk: eventId === undefined ? 'ACCOUNT' : `EVENT#${eventId}`,
  }),
  /** A task that ran out of retries, listed per day for the operator (`webhooks dead-letters`). */
  deadLetter: (failedAt: string, taskId: string): ItemKey => ({
    pk: `WEBHOOK_DEAD_LETTERS#${failedAt.slice(0, 10)}`,
    sk: `${failedAt}#${taskId}`,
  }),
};
