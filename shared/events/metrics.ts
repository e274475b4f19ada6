/**
 * The business facts an event reports, counted as metrics. Every event is stored in the same
 * transaction as the change it reports, once: a request replayed under its Idempotency-Key, or one
 * that lost a race, stores none. The outbox relay counts each event when the bus has taken it, so
 * each fact is counted once, whichever function settled it (a checkout, the legacy charge, recovery
 * finishing an approval late, a billing run), and a batch the stream hands again counts only the
 * records not taken before.
 *
 * The types are written out rather than imported from the areas' event definitions, so the relay
 * bundles no area's schemas; test/local/metrics.test.ts holds them to the catalogue.
 */
import { modeOf } from '../core/account.ts';
import { countFact, type MetricName, metricNames } from '../core/metrics.ts';
import type { EventDetail } from './event.ts';

/** The metrics an event of each type counts, from its data (a failed renewal counts one or two). */
export const eventMetrics: Readonly<Record<string, (data: Record<string, unknown>) => MetricName[]>> = {
  // Every approved charge, whatever paid for it (a checkout, the legacy charge, a renewal), is
  // recorded with this one event; `payment.succeeded` goes with it for a checkout, so is not counted.
  'charge.succeeded': () => [metricNames.chargesApproved],
  'payment.failed': () => [metricNames.chargesDeclined],
  'refund.created': () => [metricNames.refunds],
  'subscription.renewed': () => [metricNames.renewals],
  // A declined renewal; with a next try it is dunning going on. The last one is followed by the
  // cancellation below, counted there.
  'subscription.payment_failed': (data) => [
    metricNames.chargesDeclined,
    ...(data.next_retry_at ? [metricNames.dunningRetries] : []),
  ],
  'subscription.canceled': (data) =>
    data.reason === 'payment_failed' ? [metricNames.dunningCancellations] : [],
};

/** Counts the fact `detail` reports, if it is one the metrics follow. */
export function countEvent(detail: EventDetail<unknown>): void {
  const names = eventMetrics[detail.type]?.((detail.data ?? {}) as Record<string, unknown>) ?? [];
  for (const name of names) countFact(name, modeOf(detail.test));
}
