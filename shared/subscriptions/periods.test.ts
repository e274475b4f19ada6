import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonthsClamped, billingDate, periodAt, periodContaining } from './periods.ts';

const day = (iso: string) => new Date(`${iso}T09:30:00.000Z`);
const dates = (anchor: Date, interval: 'month' | 'year', count: number, n: number) =>
  Array.from({ length: n }, (_, index) => billingDate(periodAt(anchor, interval, count, index)));

describe('billing periods', () => {
  it('a Jan 31 anchor renews on the last day of shorter months, then on the 31st again', () => {
    expect(dates(day('2027-01-31'), 'month', 1, 4)).toEqual([
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
    expect(dates(day('2028-01-31'), 'month', 1, 2)).toEqual(['2028-02-29', '2028-03-31']); // leap year
  });

  it('a Feb 29 anchor renews yearly on Feb 28, and on Feb 29 in leap years', () => {
    expect(dates(day('2028-02-29'), 'year', 1, 4)).toEqual([
      '2029-02-28',
      '2030-02-28',
      '2031-02-28',
      '2032-02-29',
    ]);
  });

  it('counts interval_count months or years per period and keeps the time of day', () => {
    expect(dates(day('2026-11-30'), 'month', 3, 3)).toEqual(['2027-02-28', '2027-05-30', '2027-08-30']);
    expect(periodAt(day('2026-11-22'), 'year', 2, 1).start.toISOString()).toBe('2028-11-22T09:30:00.000Z');
  });

  it('boundaries come from the anchor: contiguous, increasing, on the anchor day or the month end', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        fc.constantFrom('month' as const, 'year' as const),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 60 }),
        (anchor, interval, count, index) => {
          const period = periodAt(anchor, interval, count, index);
          const next = periodAt(anchor, interval, count, index + 1);
          expect(next.start.getTime()).toBe(period.end.getTime());
          expect(period.end.getTime()).toBeGreaterThan(period.start.getTime());
          const lastDay = new Date(
            Date.UTC(period.end.getUTCFullYear(), period.end.getUTCMonth() + 1, 0),
          ).getUTCDate();
          expect(period.end.getUTCDate()).toBe(Math.min(anchor.getUTCDate(), lastDay));
          expect(period.end.getUTCHours()).toBe(anchor.getUTCHours());
        },
      ),
    );
  });

  it('finds the period containing a time, the first one before the anchor', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2080-01-01'), noInvalidDate: true }),
        fc.constantFrom('month' as const, 'year' as const),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 40 * 365 * 86_400_000 }),
        (anchor, interval, count, offset) => {
          const at = new Date(anchor.getTime() + offset);
          const found = periodContaining(anchor, interval, count, at);
          expect(found.start.getTime()).toBeLessThanOrEqual(at.getTime());
          expect(found.end.getTime()).toBeGreaterThan(at.getTime());
        },
      ),
    );
    expect(periodContaining(day('2027-01-31'), 'month', 1, day('2026-12-01')).index).toBe(0);
  });

  it('moves months across year ends both ways', () => {
    expect(addMonthsClamped(day('2026-12-31'), 2).toISOString().slice(0, 10)).toBe('2027-02-28');
    expect(addMonthsClamped(day('2027-03-31'), -1).toISOString().slice(0, 10)).toBe('2027-02-28');
  });
});
