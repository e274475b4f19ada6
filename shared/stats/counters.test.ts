import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addFigures,
  dayFiguresOf,
  daysEnding,
  emptyDay,
  exactMrr,
  minorOf,
  mrrAttribute,
  mrrScale,
  roundedMinor,
  type SubscriptionWeight,
  weightOf,
} from './counters.ts';

/** A gauge as the table would hold it after these ADDs (each activation adds, each cancellation takes away). */
function gaugeAfter(added: readonly SubscriptionWeight[], removed: readonly SubscriptionWeight[]) {
  const gauge: Record<string, number> = {};
  for (const weight of added)
    gauge[mrrAttribute(weight)] = (gauge[mrrAttribute(weight)] ?? 0) + weight.amount;
  for (const weight of removed)
    gauge[mrrAttribute(weight)] = (gauge[mrrAttribute(weight)] ?? 0) - weight.amount;
  return gauge;
}

const plan = fc.record({
  amount: fc.integer({ min: 1, max: 999_999_999 }),
  currency: fc.constantFrom('USD', 'EUR', 'JPY', 'KWD'),
  interval: fc.constantFrom('month' as const, 'year' as const),
  quantity: fc.integer({ min: 1, max: 100 }),
  count: fc.integer({ min: 1, max: 36 }),
});

describe('monthly recurring revenue', () => {
  it('of any activations minus cancellations is the exact sum of amount × quantity / months', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(plan, fc.boolean()), { maxLength: 40 }), (subscriptions) => {
        const weights = subscriptions
          .filter(([p]) => p.interval === 'month' || p.count <= 3)
          .map(([p, canceled]) => ({
            canceled,
            weight: weightOf({
              amount: p.amount,
              currency: p.currency,
              interval: p.interval,
              interval_count: p.interval === 'year' ? Math.min(p.count, 3) : p.count,
              quantity: p.quantity,
            }),
          }));
        const gauge = gaugeAfter(
          weights.map(({ weight }) => weight),
          weights.filter(({ canceled }) => canceled).map(({ weight }) => weight),
        );
        const mrr = exactMrr(gauge);
        // The expected sum, as a fraction over the product of every divisor (no shared scale).
        const expected = new Map<string, { num: bigint; den: bigint }>();
        for (const { canceled, weight } of weights) {
          if (canceled) continue;
          const before = expected.get(weight.currency) ?? { num: 0n, den: 1n };
          const m = BigInt(weight.months);
          expected.set(weight.currency, {
            num: before.num * m + BigInt(weight.amount) * before.den,
            den: before.den * m,
          });
        }
        for (const code of new Set([...mrr.keys(), ...expected.keys()])) {
          const { num, den } = expected.get(code) ?? { num: 0n, den: 1n };
          // scaled / mrrScale == num / den, exactly.
          expect((mrr.get(code) ?? 0n) * den).toBe(num * mrrScale);
        }
      }),
    );
  });

  it('a yearly plan is a twelfth a month, every 3 months a third; rounded half up only when shown', () => {
    const yearly = weightOf({
      amount: 12_000,
      currency: 'usd',
      interval: 'year',
      interval_count: 1,
      quantity: 1,
    });
    const quarterly = weightOf({
      amount: 10_000,
      currency: 'USD',
      interval: 'month',
      interval_count: 3,
      quantity: 1,
    });
    expect(yearly).toEqual({ currency: 'USD', months: 12, amount: 12_000 });
    const mrr = exactMrr(gaugeAfter([yearly, quarterly], []));
    expect(mrr.get('USD')).toBe(1000n * mrrScale + (10_000n * mrrScale) / 3n);
    expect(roundedMinor(mrr.get('USD') ?? 0n)).toBe(1000 + 3333);
    // Two thirds round up, a third down, a half up.
    expect(roundedMinor((2n * mrrScale) / 3n)).toBe(1);
    expect(roundedMinor(mrrScale / 3n)).toBe(0);
    expect(roundedMinor(mrrScale / 2n)).toBe(1);
    // Three quarterly subscriptions of 1.00 are 1.00 a month, not 0.99.
    const three = Array.from({ length: 3 }, () =>
      weightOf({ amount: 100, currency: 'USD', interval: 'month', interval_count: 3, quantity: 1 }),
    );
    expect(roundedMinor(exactMrr(gaugeAfter(three, [])).get('USD') ?? 0n)).toBe(100);
  });

  it('refuses what a plan cannot be', () => {
    expect(() =>
      weightOf({ amount: 1, currency: 'USD', interval: 'year', interval_count: 4, quantity: 1 }),
    ).toThrow();
    expect(() =>
      weightOf({ amount: 1, currency: 'XXX', interval: 'month', interval_count: 1, quantity: 1 }),
    ).toThrow();
  });
});

describe('amounts and days', () => {
  it('reads an event amount as minor units from its digits', () => {
    expect(minorOf('12.34', 'usd')).toBe(1234);
    expect(minorOf(9.9, 'USD')).toBe(990);
    expect(minorOf(0.29, 'USD')).toBe(29);
    expect(minorOf('1000', 'JPY')).toBe(1000);
    expect(minorOf('1.234', 'KWD')).toBe(1234);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (minor) => {
        expect(minorOf(minor / 100, 'USD')).toBe(minor);
      }),
    );
  });

  it('the window is the 30 UTC days ending today, oldest first', () => {
    const days = daysEnding(new Date('2026-03-01T23:59:59.999Z'));
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('2026-01-31');
    expect(days[29]).toBe('2026-03-01');
  });

  it('a stored day reads back as figures, and days add up', () => {
    const day = dayFiguresOf('2026-03-01', {
      charges: 2,
      volume_USD: 300,
      refunded_EUR: 5,
      other: 1,
      declines: 1,
    });
    expect(day).toEqual({
      ...emptyDay('2026-03-01'),
      charges: 2,
      declines: 1,
      volume: { USD: 300 },
      refunded: { EUR: 5 },
    });
    const total = addFigures(day, dayFiguresOf('2026-03-02', { charges: 1, volume_USD: 1, volume_JPY: 7 }));
    expect(total.charges).toBe(3);
    expect(total.volume).toEqual({ USD: 301, JPY: 7 });
  });
});
