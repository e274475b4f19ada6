/**
 * The query of GET /v1/plans/ (docs/design.md#lists): paging plus filters that combine with AND.
 * Every malformed value is a 400; inverted ranges are 400 (type warning) before anything is read.
 */
import * as v from 'valibot';
import { Invalid } from '../core/errors.ts';
import { type PageRequest, pageParameters, pageRequestOf } from '../core/pagination.ts';
import { digitsQuery, queryParameter, scaledDecimalQuery } from '../core/query.ts';
import { validate } from '../core/validation.ts';
import { planMessages } from './messages.ts';
import { priceScale } from './plan.ts';
import { type Interval, intervals } from './schemas.ts';

export interface PlanFilters {
  /** Lower-cased substring of the name. */
  name?: string;
  /** Prices at `priceScale` decimals, inclusive. */
  priceMin?: number;
  priceMax?: number;
  interval?: Interval;
  intervalCount?: number;
  subscribersMin?: number;
  subscribersMax?: number;
  trialDays?: number;
  active?: boolean;
}

export interface PlanListQuery {
  page: PageRequest;
  filters: PlanFilters;
}

/** The fields that are set: a filter not given is no key at all. */
const definedOnly = <T extends object>(record: T): T =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;

// A picklist compares values, so `constructor` or `__proto__` name no status.
const statuses = ['active', 'inactive', 'true', 'false'] as const;

/**
 * The query of GET /v1/plans/, as the handler parses it and the OpenAPI document lists it. Filters
 * come first so a 400 lists problems in this order.
 */
export const PlanListQuerySchema = v.pipe(
  v.object({
    name: queryParameter(
      'string',
      'Case-insensitive substring of the name.',
      v.pipe(v.string(), v.toLowerCase()),
    ),
    price_min: queryParameter(
      'string',
      'Lowest price, inclusive (decimal, any currency).',
      scaledDecimalQuery(priceScale),
    ),
    price_max: queryParameter(
      'string',
      'Highest price, inclusive; below price_min is 400.',
      scaledDecimalQuery(priceScale),
    ),
    interval: queryParameter(
      'string',
      '`month` or `year`.',
      v.pipe(v.string(), v.toLowerCase(), v.picklist(intervals)),
    ),
    interval_count: queryParameter('integer', 'Intervals between charges.', digitsQuery()),
    subscribers_min: queryParameter('integer', 'Fewest active subscriptions, inclusive.', digitsQuery()),
    subscribers_max: queryParameter(
      'integer',
      'Most active subscriptions; below subscribers_min is 400.',
      digitsQuery(),
    ),
    trial_days: queryParameter('integer', 'Exact trial_period_days.', digitsQuery()),
    status: queryParameter(
      'string',
      '`active`/`true` or `inactive`/`false`.',
      v.pipe(
        v.string(),
        v.toLowerCase(),
        v.picklist(statuses),
        v.transform((status) => status === 'active' || status === 'true'),
      ),
    ),
    ...pageParameters(),
  }),
  v.transform(
    (query): PlanListQuery => ({
      page: pageRequestOf(query),
      filters: definedOnly({
        name: query.name,
        priceMin: query.price_min,
        priceMax: query.price_max,
        interval: query.interval,
        intervalCount: query.interval_count,
        subscribersMin: query.subscribers_min,
        subscribersMax: query.subscribers_max,
        trialDays: query.trial_days,
        active: query.status,
      }),
    }),
  ),
);

/** Whether a plan passes every filter but the name (the name index has already chosen it). */
export function matchesFilters(
  plan: {
    amount_scaled: number;
    interval: Interval;
    interval_count: number;
    subscriber_count: number;
    trial_period_days: number;
    active: boolean;
  },
  filters: PlanFilters,
): boolean {
  const within = (value: number, min?: number, max?: number) =>
    (min === undefined || value >= min) && (max === undefined || value <= max);
  return (
    within(plan.amount_scaled, filters.priceMin, filters.priceMax) &&
    within(plan.subscriber_count ?? 0, filters.subscribersMin, filters.subscribersMax) &&
    (filters.interval === undefined || plan.interval === filters.interval) &&
    (filters.intervalCount === undefined || plan.interval_count === filters.intervalCount) &&
    (filters.trialDays === undefined || plan.trial_period_days === filters.trialDays) &&
    (filters.active === undefined || plan.active === filters.active)
  );
}

/** Whether any filter is set: only then does an empty result answer 400. */
export const hasFilters = (filters: PlanFilters) =>
  Object.values(filters).some((value) => value !== undefined);

/** The query of GET /v1/plans/; a malformed value is InvalidInput, an inverted range Invalid. */
export function parsePlanListQuery(query: Record<string, string | undefined>): PlanListQuery {
  const parsed = validate(PlanListQuerySchema, query);
  const { priceMin, priceMax, subscribersMin, subscribersMax } = parsed.filters;
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
    throw new Invalid(planMessages.plan_price_range);
  }
  if (subscribersMin !== undefined && subscribersMax !== undefined && subscribersMin > subscribersMax) {
    throw new Invalid(planMessages.plan_subscriber_range);
  }
  return parsed;
}
