/**
 * The query of GET /v1/plans/ (D9): paging plus filters that combine with AND. Every malformed
 * value is a 400; inverted ranges are 400 (type warning) before anything is read.
 */
import { BadRequest } from '../http/errors.ts';
import { type PageRequest, parsePageRequest } from '../http/pagination.ts';
import { InvalidInput, type Problem } from '../http/validation.ts';
import { parseScaledDecimal } from '../money/amount.ts';
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

/** The query parameters GET /v1/plans/ reads, as the OpenAPI document lists them. */
export const planListParameters = [
  { name: 'page', type: 'integer', description: 'From 1 (default 1); past the last page is 404.' },
  { name: 'page_size', type: 'integer', description: 'Default 10; above 100 is taken as 100.' },
  { name: 'name', type: 'string', description: 'Case-insensitive substring of the name.' },
  { name: 'price_min', type: 'number', description: 'Lowest price, inclusive (decimal, any currency).' },
  { name: 'price_max', type: 'number', description: 'Highest price, inclusive; below price_min is 400.' },
  { name: 'interval', type: 'string', description: '`month` or `year`.' },
  { name: 'interval_count', type: 'integer', description: 'Intervals between charges.' },
  { name: 'subscribers_min', type: 'integer', description: 'Fewest active subscriptions, inclusive.' },
  {
    name: 'subscribers_max',
    type: 'integer',
    description: 'Most active subscriptions; below subscribers_min is 400.',
  },
  { name: 'trial_days', type: 'integer', description: 'Exact trial_period_days.' },
  { name: 'status', type: 'string', description: '`active`/`true` or `inactive`/`false`.' },
] as const satisfies readonly { name: string; type: string; description: string }[];

const statusValues: Record<string, boolean> = { active: true, true: true, inactive: false, false: false };

/** Whether any filter is set: only then does an empty result answer 400. */
export const hasFilters = (filters: PlanFilters) =>
  Object.values(filters).some((value) => value !== undefined);

export function parsePlanListQuery(query: Record<string, string | undefined>): PlanListQuery {
  const problems: Problem[] = [];
  const given = (field: string) => {
    const value = query[field]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const count = (field: string) => {
    const raw = given(field);
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
      problems.push({ field, rule: 'integer' });
      return undefined;
    }
    return Number(raw);
  };
  const price = (field: string) => {
    const raw = given(field);
    if (raw === undefined) return undefined;
    const value = parseScaledDecimal(raw, priceScale);
    if (value === undefined) problems.push({ field, rule: 'decimal' });
    return value;
  };
  const filters: PlanFilters = {};
  const name = given('name');
  if (name !== undefined) filters.name = name.toLowerCase();
  const priceMin = price('price_min');
  const priceMax = price('price_max');
  const interval = given('interval')?.toLowerCase();
  if (interval !== undefined) {
    if ((intervals as readonly string[]).includes(interval)) filters.interval = interval as Interval;
    else problems.push({ field: 'interval', rule: 'one_of', params: { options: intervals.join(', ') } });
  }
  const intervalCount = count('interval_count');
  const subscribersMin = count('subscribers_min');
  const subscribersMax = count('subscribers_max');
  const trialDays = count('trial_days');
  const status = given('status')?.toLowerCase();
  if (status !== undefined) {
    // Own keys only: `constructor` or `__proto__` name no status.
    if (Object.hasOwn(statusValues, status)) filters.active = statusValues[status];
    else
      problems.push({
        field: 'status',
        rule: 'one_of',
        params: { options: 'active, inactive, true, false' },
      });
  }
  let page: PageRequest | undefined;
  try {
    page = parsePageRequest(query);
  } catch (error) {
    if (!(error instanceof InvalidInput)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length || !page) throw new InvalidInput(problems);
  Object.assign(
    filters,
    Object.fromEntries(
      Object.entries({ priceMin, priceMax, intervalCount, subscribersMin, subscribersMax, trialDays }).filter(
        ([, value]) => value !== undefined,
      ),
    ),
  );
  if (priceMin !== undefined && priceMax !== undefined && priceMin > priceMax) {
    throw new BadRequest('plan_price_range', { type: 'warning' });
  }
  if (subscribersMin !== undefined && subscribersMax !== undefined && subscribersMin > subscribersMax) {
    throw new BadRequest('plan_subscriber_range', { type: 'warning' });
  }
  return { page, filters };
}
