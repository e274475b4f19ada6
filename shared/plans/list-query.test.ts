import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Invalid } from '../core/errors.ts';
import { formatAmount, maxMinorUnits, scaled } from '../core/money/amount.ts';
import { currencies } from '../core/money/currencies.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput, type Problem } from '../core/validation.ts';
import { answerOf, statusOf } from '../http/errors.ts';
import { hasFilters, parsePlanListQuery } from './list-query.ts';
import { planMessages } from './messages.ts';
import { priceScale } from './plan.ts';

function thrownBy(query: Record<string, string | undefined>): unknown {
  try {
    parsePlanListQuery(query);
  } catch (error) {
    return error;
  }
  throw new Error(`accepted ${JSON.stringify(query)}`);
}

function problemsOf(query: Record<string, string | undefined>): readonly Problem[] {
  const error = thrownBy(query);
  expect(error).toBeInstanceOf(InvalidInput);
  expect(statusOf(error)).toBe(400);
  return (error as InvalidInput).problems;
}

const filtersOf = (query: Record<string, string | undefined>) => parsePlanListQuery(query).filters;

describe('parsePlanListQuery filters', () => {
  it('lower-cases and trims the name', () => {
    expect(filtersOf({ name: ' Gold PLAN ' })).toEqual({ name: 'gold plan' });
  });

  it('reads prices at scale 3', () => {
    expect(priceScale).toBe(3);
    expect(filtersOf({ price_min: '10.5', price_max: '20' })).toEqual({ priceMin: 10500, priceMax: 20000 });
    expect(filtersOf({ price_min: '0.001' })).toEqual({ priceMin: 1 });
    expect(filtersOf({ price_max: '0' })).toEqual({ priceMax: 0 });
  });

  it('reads a price as the scaled amount of a plan in any currency', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...currencies.values()),
        fc.integer({ min: 1, max: maxMinorUnits }),
        (currency, minor) => {
          const text = formatAmount(minor, currency);
          expect(filtersOf({ price_min: text }).priceMin).toBe(scaled(minor, currency, priceScale));
        },
      ),
    );
  });

  it.each([
    ['active', true],
    ['inactive', false],
    ['true', true],
    ['false', false],
    ['ACTIVE', true],
    [' Inactive ', false],
  ])('reads status %j as active %s', (status, active) => {
    expect(filtersOf({ status })).toEqual({ active });
  });

  it.each([
    ['month', 'month'],
    ['MONTH', 'month'],
    ['Year', 'year'],
  ])('reads interval %j case-insensitively', (interval, expected) => {
    expect(filtersOf({ interval })).toEqual({ interval: expected });
  });

  it('reads the integer filters', () => {
    expect(
      filtersOf({ interval_count: '2', subscribers_min: '0', subscribers_max: '15', trial_days: '30' }),
    ).toEqual({ intervalCount: 2, subscribersMin: 0, subscribersMax: 15, trialDays: 30 });
  });

  it('combines every filter', () => {
    expect(
      parsePlanListQuery({
        name: 'Pro',
        price_min: '1',
        price_max: '2.25',
        interval: 'year',
        interval_count: '1',
        subscribers_min: '1',
        subscribers_max: '1',
        trial_days: '0',
        status: 'inactive',
        page: '2',
        page_size: '5',
      }),
    ).toEqual({
      page: { page: 2, pageSize: 5 },
      filters: {
        name: 'pro',
        priceMin: 1000,
        priceMax: 2250,
        interval: 'year',
        intervalCount: 1,
        subscribersMin: 1,
        subscribersMax: 1,
        trialDays: 0,
        active: false,
      },
    });
  });

  it('ignores empty and blank values', () => {
    const query = {
      name: '',
      price_min: '',
      price_max: ' ',
      interval: '',
      interval_count: '',
      subscribers_min: '',
      subscribers_max: '',
      trial_days: '',
      status: '  ',
      page: '',
      page_size: '',
    };
    const parsed = parsePlanListQuery(query);
    expect(parsed).toEqual({ page: { page: 1, pageSize: 10 }, filters: {} });
    expect(hasFilters(parsed.filters)).toBe(false);
  });
});

describe('parsePlanListQuery refusals', () => {
  it.each([
    ['price_min', 'abc', 'decimal'],
    ['price_min', '-1', 'decimal'],
    ['price_max', '1.2345', 'decimal'],
    ['price_max', '1e3', 'decimal'],
    ['interval_count', '1.5', 'integer'],
    ['interval_count', '-1', 'integer'],
    ['subscribers_min', 'x', 'integer'],
    ['subscribers_max', '99999999999999999999', 'integer'],
    ['trial_days', 'ten', 'integer'],
  ] as const)('refuses %s=%j as %s', (field, value, name) => {
    const rule = name === 'decimal' ? rules.decimal : rules.integer;
    expect(problemsOf({ [field]: value })).toEqual([{ field, rule }]);
  });

  it('refuses an unknown interval, listing the intervals', () => {
    expect(problemsOf({ interval: 'week' })).toEqual([
      { field: 'interval', rule: rules.one_of, params: { options: 'month, year' } },
    ]);
  });

  it.each(['maybe', 'yes', '1'])('refuses status %j, listing the statuses', (status) => {
    expect(problemsOf({ status })).toEqual([
      { field: 'status', rule: rules.one_of, params: { options: 'active, inactive, true, false' } },
    ]);
  });

  // A status is looked up with `in`, which also finds Object.prototype's members: "constructor"
  // (any case) and "__proto__" pass and set `active` to a function or an object.
  it.each(['constructor', 'Constructor', '__proto__'])(
    'refuses status %j, which names no status',
    (status) => {
      expect(problemsOf({ status })).toEqual([
        { field: 'status', rule: rules.one_of, params: { options: 'active, inactive, true, false' } },
      ]);
    },
  );

  it('reports every bad field at once, paging included', () => {
    const fields = problemsOf({
      price_min: 'x',
      interval: 'day',
      trial_days: '-',
      page: '0',
      page_size: 'y',
    }).map((problem) => problem.field);
    expect(fields).toEqual(['price_min', 'interval', 'trial_days', 'page', 'page_size']);
  });

  it('clamps page_size as every list does', () => {
    expect(parsePlanListQuery({ page_size: '500' }).page).toEqual({ page: 1, pageSize: 100 });
  });
});

describe('parsePlanListQuery ranges', () => {
  it('answers 400 plan_price_range (type warning) for a minimum price above the maximum', () => {
    const error = thrownBy({ price_min: '10.01', price_max: '10' });
    expect(error).toBeInstanceOf(Invalid);
    expect(error).not.toBeInstanceOf(InvalidInput);
    expect(statusOf(error)).toBe(400);
    expect((error as Invalid).msg).toBe(planMessages.plan_price_range);
    expect(answerOf(error, 'en')?.body).toEqual({
      code: 400,
      title: 'Invalid price range',
      content: 'The minimum price is greater than the maximum price.',
      type: 'warning',
    });
  });

  it('answers 400 plan_subscriber_range (type warning) for a minimum subscriber count above the maximum', () => {
    const error = thrownBy({ subscribers_min: '5', subscribers_max: '4' });
    expect(error).toBeInstanceOf(Invalid);
    expect(statusOf(error)).toBe(400);
    expect((error as Invalid).msg).toBe(planMessages.plan_subscriber_range);
    expect(answerOf(error, 'es')?.body).toMatchObject({ type: 'warning' });
  });

  it('takes equal bounds', () => {
    expect(
      filtersOf({ price_min: '10', price_max: '10.000', subscribers_min: '3', subscribers_max: '3' }),
    ).toEqual({
      priceMin: 10000,
      priceMax: 10000,
      subscribersMin: 3,
      subscribersMax: 3,
    });
  });

  it('reports malformed values before an inverted range', () => {
    expect(problemsOf({ price_min: '5', price_max: '1', trial_days: 'x' })).toEqual([
      { field: 'trial_days', rule: rules.integer },
    ]);
  });

  it('refuses exactly the inverted price ranges', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_000_000 }), fc.nat({ max: 1_000_000 }), (a, b) => {
        const query = { price_min: (a / 1000).toFixed(3), price_max: (b / 1000).toFixed(3) };
        if (a > b) expect(thrownBy(query)).toBeInstanceOf(Invalid);
        else expect(filtersOf(query)).toEqual({ priceMin: a, priceMax: b });
      }),
    );
  });
});

describe('hasFilters', () => {
  it('is false when only paging and the test flag are given', () => {
    const parsed = parsePlanListQuery({ page: '2', page_size: '5', test: 'true' });
    expect(parsed.page).toEqual({ page: 2, pageSize: 5 });
    expect(parsed.filters).toEqual({});
    expect(hasFilters(parsed.filters)).toBe(false);
  });

  it.each([
    { name: 'a' },
    { price_min: '0' },
    { price_max: '1' },
    { interval: 'month' },
    { interval_count: '1' },
    { subscribers_min: '0' },
    { subscribers_max: '0' },
    { trial_days: '0' },
    { status: 'false' },
  ])('is true for %j', (query) => {
    expect(hasFilters(parsePlanListQuery(query).filters)).toBe(true);
  });
});
