/**
 * What the dashboard overview counts, as pure rules (docs/design.md#dashboard-overview-counters):
 * which attribute of a day's item an event adds to, and the monthly recurring revenue in exact
 * integer arithmetic. Amounts are always integer minor units.
 *
 * A day's item holds `charges`, `declines`, `refunds`, `failed_renewals` (counts) and, per currency
 * (upper-case code), `volume_<CUR>` and `refunded_<CUR>` (minor units). The gauge holds `active` (the
 * subscriptions counted now) and, per currency and number of months between charges `m` (1 to 36),
 * `mrr_<CUR>_<m>`: the sum of amount × quantity of the counted subscriptions charged every `m`
 * months. Each of those sums is an exact integer; the monthly revenue is Σ sum / m, kept as one
 * integer scaled by the least common multiple of 1…36 (so every 1/m is whole) and rounded only when
 * shown. One scaled sum stored in the item would need up to 27 digits: past what a JavaScript number
 * holds exactly, while the per-period sums stay inside it.
 */

import { parseScaledDecimal } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';

/** The most months a plan may leave between charges (a plan's own limit: 3 years). */
export const maxMonthsBetween = 36;

/** The overview's window: today (UTC) and the 29 days before it. */
export const overviewDays = 30;

/** The counts of a day's item. */
export const dayCounts = ['charges', 'declines', 'refunds', 'failed_renewals'] as const;
export type DayCount = (typeof dayCounts)[number];

/** The per-currency sums of a day's item. */
export const daySums = ['volume', 'refunded'] as const;
export type DaySum = (typeof daySums)[number];

/** A day's figures as the overview answers them. */
export interface DayFigures {
  day: string;
  charges: number;
  declines: number;
  refunds: number;
  failed_renewals: number;
  /** Minor units by upper-case currency code. */
  volume: Record<string, number>;
  refunded: Record<string, number>;
}

/** The UTC day (`YYYY-MM-DD`) of an ISO 8601 time. */
export const dayOf = (iso: string | Date): string =>
  (typeof iso === 'string' ? new Date(iso) : iso).toISOString().slice(0, 10);

/** The `count` days ending with `now`'s UTC day, oldest first. */
export function daysEnding(now: Date, count = overviewDays): string[] {
  const last = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, index) =>
    new Date(last - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** The upper-case code of a currency cobro takes, or an error: a counter never holds an unknown one. */
export function currencyCode(code: string): string {
  const currency = findCurrency(code);
  if (!currency) throw new Error(`not a currency cobro takes: ${code}`);
  return currency.code;
}

/**
 * An amount an event shows in major units (a decimal string, or the number a charge's list view
 * carries for display) as integer minor units, read from its digits at the currency's precision.
 */
export function minorOf(amount: string | number, code: string): number {
  const currency = findCurrency(code);
  if (!currency) throw new Error(`not a currency cobro takes: ${code}`);
  const text = typeof amount === 'number' ? amount.toFixed(currency.precision) : amount;
  const minor = parseScaledDecimal(text, currency.precision);
  if (minor === undefined) throw new Error(`not an amount of ${currency.code}: ${text}`);
  return minor;
}

/** The attribute of a day's per-currency sum. */
export const sumAttribute = (sum: DaySum, code: string) => `${sum}_${currencyCode(code)}`;

/** An empty day. */
export const emptyDay = (day: string): DayFigures => ({
  day,
  charges: 0,
  declines: 0,
  refunds: 0,
  failed_renewals: 0,
  volume: {},
  refunded: {},
});

const sumPattern = /^(volume|refunded)_([A-Z]{3})$/;

/** A stored day item read back as figures (attributes it does not know are left out). */
export function dayFiguresOf(day: string, item: Record<string, unknown> | undefined): DayFigures {
  const figures = emptyDay(day);
  if (!item) return figures;
  for (const count of dayCounts) figures[count] = Number(item[count] ?? 0);
  for (const [name, value] of Object.entries(item)) {
    const match = sumPattern.exec(name);
    if (match) figures[match[1] as DaySum][match[2] as string] = Number(value);
  }
  return figures;
}

/** Two days' figures added (totals over days). */
export function addFigures(total: DayFigures, day: DayFigures): DayFigures {
  const sum = (a: Record<string, number>, b: Record<string, number>) => {
    const out = { ...a };
    for (const [code, value] of Object.entries(b)) out[code] = (out[code] ?? 0) + value;
    return out;
  };
  return {
    day: total.day,
    charges: total.charges + day.charges,
    declines: total.declines + day.declines,
    refunds: total.refunds + day.refunds,
    failed_renewals: total.failed_renewals + day.failed_renewals,
    volume: sum(total.volume, day.volume),
    refunded: sum(total.refunded, day.refunded),
  };
}

/** The additions a day's item takes, by attribute. */
export type DayAdditions = Record<string, number>;

/** What one subscription adds to the gauge while it is counted. */
export interface SubscriptionWeight {
  /** Upper-case code. */
  currency: string;
  /** Months between its charges (interval_count, times 12 for a yearly plan): 1 to 36. */
  months: number;
  /** The plan's amount times the quantity, in minor units: what each of its charges takes. */
  amount: number;
}

/** The weight of a subscription to a plan: what it charges, and how many months apart. */
export function weightOf(price: {
  amount: number;
  currency: string;
  interval: 'month' | 'year';
  interval_count: number;
  quantity: number;
}): SubscriptionWeight {
  const months = (price.interval === 'year' ? 12 : 1) * price.interval_count;
  if (!Number.isInteger(months) || months < 1 || months > maxMonthsBetween)
    throw new Error(`months between charges out of range: ${months}`);
  const amount = price.amount * price.quantity;
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`not a whole amount: ${amount}`);
  return { currency: currencyCode(price.currency), months, amount };
}

/** The gauge attribute a subscription of this weight adds to. */
export const mrrAttribute = (weight: Pick<SubscriptionWeight, 'currency' | 'months'>) =>
  `mrr_${weight.currency}_${weight.months}`;

const mrrPattern = /^mrr_([A-Z]{3})_(\d{1,2})$/;

/** The least common multiple of 1…36: every 1/m of a month is a whole number of these parts. */
export const mrrScale = (() => {
  const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
  let lcm = 1n;
  for (let m = 1n; m <= BigInt(maxMonthsBetween); m += 1n) lcm = (lcm * m) / gcd(lcm, m);
  return lcm;
})();

/**
 * The monthly recurring revenue of a gauge by currency, exact: minor units times `mrrScale`
 * (a yearly plan of 120.00 is 10.00 a month exactly; 100.00 every 3 months is 33.33… a month,
 * kept whole here as 3,333.33… × scale).
 */
export function exactMrr(gauge: Record<string, unknown> | undefined): Map<string, bigint> {
  const mrr = new Map<string, bigint>();
  for (const [name, value] of Object.entries(gauge ?? {})) {
    const match = mrrPattern.exec(name);
    if (!match) continue;
    const code = match[1] as string;
    const months = BigInt(match[2] as string);
    const sum = BigInt(Number(value));
    mrr.set(code, (mrr.get(code) ?? 0n) + (sum * mrrScale) / months);
  }
  return mrr;
}

/** An exact scaled revenue rounded to whole minor units, half up (only for showing). */
export const roundedMinor = (scaled: bigint): number => {
  const whole = scaled / mrrScale;
  const rest = scaled % mrrScale;
  return Number(rest * 2n >= mrrScale ? whole + 1n : whole);
};

/** The active subscriptions a gauge counts. */
export const activeOf = (gauge: Record<string, unknown> | undefined) => Number(gauge?.active ?? 0);
