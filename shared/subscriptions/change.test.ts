/**
 * The proration rule (change.ts) as properties: what a period's changes charge adds up to the
 * time-weighted amount of that period within half a minor unit per change, whatever the times and
 * amounts; below USD 0.50 nothing is charged; the decision follows the interval and the amounts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { worthAtLeast } from '../core/money/fees.ts';
import { currencyOf } from '../core/money/fields.ts';
import { decideChange, prorate, prorationMinimumUsdCents } from './change.ts';
import { periodAt } from './periods.ts';
import type { Subscription } from './subscription.ts';

const anchors = fc
  .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2032, 11, 31) })
  .map((ms) => new Date(Math.floor(ms / 1000) * 1000));
const intervals = fc.constantFrom<'month' | 'year'>('month', 'year');

/** A period, an amount paid at its start, and upgrades at increasing whole seconds within it. */
const upgradesInAPeriod = fc
  .record({
    anchor: anchors,
    interval: intervals,
    count: fc.integer({ min: 1, max: 3 }),
    index: fc.integer({ min: 0, max: 30 }),
    first: fc.integer({ min: 1, max: 1_000_000 }),
    steps: fc.array(
      fc.record({
        raise: fc.integer({ min: 1, max: 500_000 }),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
  })
  .map(({ anchor, interval, count, index, first, steps }) => {
    const period = periodAt(anchor, interval, count, index);
    const seconds = (period.end.getTime() - period.start.getTime()) / 1000;
    const offsets = steps
      .map((step) => Math.min(seconds - 1, Math.floor(step.at * seconds)))
      .sort((a, b) => a - b);
    let amount = first;
    const changes = steps.map((step, i) => {
      amount += step.raise;
      return { amount, at: offsets[i] as number };
    });
    return { period, seconds, first, changes };
  });

describe('prorate', () => {
  it("charges a period's upgrades the time-weighted amount of the period, within half a minor unit per change", () => {
    fc.assert(
      fc.property(upgradesInAPeriod, ({ period, seconds, first, changes }) => {
        let charged = first;
        let before = first;
        for (const change of changes) {
          charged += prorate(
            before,
            change.amount,
            period,
            new Date(period.start.getTime() + change.at * 1000),
          );
          before = change.amount;
        }
        // Exactly: Σ amount × seconds it held ÷ seconds in the period (compared times the period's seconds).
        const total = BigInt(seconds);
        let weighted = 0n;
        let from = 0;
        let held = first;
        for (const change of changes) {
          weighted += BigInt(held) * BigInt(change.at - from);
          from = change.at;
          held = change.amount;
        }
        weighted += BigInt(held) * BigInt(seconds - from);
        const difference = BigInt(charged) * total - weighted;
        const bound = (BigInt(changes.length) * total) / 2n;
        expect(difference <= bound && -difference <= bound, `${charged} vs ${weighted}/${total}`).toBe(true);
      }),
    );
  });

  it('is the whole difference at the start, nothing at the end, and never negative', () => {
    fc.assert(
      fc.property(
        anchors,
        intervals,
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (anchor, interval, a, b) => {
          const period = periodAt(anchor, interval, 1, 0);
          expect(prorate(a, b, period, period.start)).toBe(Math.max(0, b - a));
          expect(prorate(a, b, period, period.end)).toBe(0);
          expect(prorate(a, b, period, new Date(period.start.getTime() + 1234))).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });

  it('rounds half up: 1 minor unit over two seconds of a four-second period is 1 (0.5 rounded up)', () => {
    const period = { index: 0, start: new Date(0), end: new Date(4000) };
    expect(prorate(0, 1, period, new Date(2000))).toBe(1);
    expect(prorate(0, 1, period, new Date(2001))).toBe(0); // 1 whole second left: 0.25
  });
});

/** An active subscription of `amount` × 1 per month, in its period `index`. */
function active(amount: number, anchor: Date, currency = 'USD'): Subscription {
  return {
    id: 'sub_x',
    developer_id: 1,
    mode: 'test',
    plan_id: 'gold',
    plan: { name: 'Gold', amount, currency, interval: 'month', interval_count: 1 },
    quantity: 1,
    customer_id: null,
    status: 'active',
    active: true,
    statement_descriptor: 'X',
    card_token: 'tok',
    anchor: anchor.toISOString(),
    trial_end: null,
    paid_through: 0,
    failed_attempts: 0,
    failed_at: null,
    next_action_at: periodAt(anchor, 'month', 1, 0).end.toISOString(),
    version: 1,
    created_at: anchor.toISOString(),
    updated_at: anchor.toISOString(),
    canceled_at: null,
  };
}

describe('decideChange', () => {
  it('charges at once only a higher amount on the same interval, and only what is worth USD 0.50', () => {
    fc.assert(
      fc.property(
        anchors,
        fc.integer({ min: 100, max: 100_000 }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.constantFrom<'month' | 'year'>('month', 'year'),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.constantFrom('USD', 'JPY', 'EUR'),
        (anchor, amount, next, interval, elapsed, currency) => {
          const subscription = active(amount, anchor, currency);
          const period = periodAt(anchor, 'month', 1, 0);
          const now = new Date(
            period.start.getTime() + Math.floor(elapsed * (period.end.getTime() - period.start.getTime())),
          );
          const target = {
            plan_id: 'other',
            plan: { name: 'Other', amount: next, currency, interval, interval_count: 1 },
            quantity: 1,
          };
          const decision = decideChange(subscription, target, now);
          if (interval !== 'month' || next <= amount) {
            expect(decision).toEqual({
              kind: 'pending',
              change: { ...target, effective_at: period.end.toISOString() },
            });
            return;
          }
          const difference = prorate(amount, next, period, now);
          const worth = worthAtLeast(difference, currencyOf({ currency }), prorationMinimumUsdCents);
          expect(decision).toMatchObject({ kind: 'at_once', charge: worth ? difference : 0 });
        },
      ),
    );
  });

  it('clears a pending change when asked for the current plan and quantity, and waits once a renewal began', () => {
    const anchor = new Date('2030-01-31T10:00:00.000Z');
    const subscription = active(1000, anchor);
    const same = { plan_id: 'gold', plan: subscription.plan, quantity: 1 };
    expect(decideChange(subscription, same, anchor)).toEqual({ kind: 'none' });
    const pending = { ...subscription, pending_change: { ...same, plan_id: 'x', effective_at: 'y' } };
    expect(decideChange(pending, same, anchor)).toEqual({ kind: 'clear_pending' });
    const bigger = { plan_id: 'p', plan: { ...subscription.plan, amount: 5000 }, quantity: 1 };
    expect(decideChange(subscription, bigger, anchor, { renewing: true })).toMatchObject({ kind: 'pending' });
  });
});
