/**
 * Billing periods (docs/design.md#billing): counted from the anchor (the first period's start),
 * `interval_count` months or years each. A period boundary falls on the anchor's day of the month, or
 * on the last day of a shorter month: a Jan 31 anchor renews on Feb 28 (29 in a leap year), then on
 * Mar 31, because every boundary is computed from the anchor, never from the previous boundary. Times
 * are UTC and keep the anchor's time of day.
 */

export type Interval = 'month' | 'year';

const monthsPer = (interval: Interval, count: number) => (interval === 'year' ? 12 : 1) * count;

/** `anchor` moved `months` calendar months, its day clamped to the target month's last day. */
export function addMonthsClamped(anchor: Date, months: number): Date {
  const total = anchor.getUTCMonth() + months;
  const year = anchor.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

export interface Period {
  /** 0 for the first period. */
  index: number;
  start: Date;
  end: Date;
}

/** Period `index` of a subscription anchored at `anchor`. */
export function periodAt(anchor: Date, interval: Interval, count: number, index: number): Period {
  const months = monthsPer(interval, count);
  return {
    index,
    start: addMonthsClamped(anchor, index * months),
    end: addMonthsClamped(anchor, (index + 1) * months),
  };
}

/** The period that contains `at` (start ≤ at < end); the first one for a time before the anchor. */
export function periodContaining(anchor: Date, interval: Interval, count: number, at: Date): Period {
  const months = monthsPer(interval, count);
  const elapsed =
    (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
  // The calendar estimate is off by at most one period either way: step to the right one.
  let index = Math.max(0, Math.floor(elapsed / months));
  while (index > 0 && periodAt(anchor, interval, count, index).start > at) index -= 1;
  while (periodAt(anchor, interval, count, index).end <= at) index += 1;
  return periodAt(anchor, interval, count, index);
}

/** The `next_billing_date` of a period: the date (UTC) its end falls on. */
export const billingDate = (period: Pick<Period, 'end'>) => period.end.toISOString().slice(0, 10);
