/**
 * Exact money arithmetic (docs/design.md#money): currency conversion through the USD rates, the
 * processing fee, the USD 1.00 minimum and the list view's exchange numbers. Every money result is
 * computed as one BigInt rational and rounded half-up once at the end, so no float ever touches an
 * amount; the only JS numbers produced from fractions are display values (`exchangeFields`,
 * `formatMajor`).
 */
import { formatAmount } from './amount.ts';
import { type Currency, currencies } from './currencies.ts';

/** An exact fraction; `den` is always positive. */
export interface Rational {
  num: bigint;
  den: bigint;
}

/** The processing fee's percentage part, 2.9 %. */
export const feePercent: Rational = { num: 29n, den: 1000n };
/** The processing fee's fixed part in US cents, converted to the charge's currency. */
export const feeFixedUsdCents = 30;
/** The smallest charge, as US cents: amounts must be worth at least USD 1.00. */
export const minimumUsdCents = 100;

const decimalPattern = /^(\d+)(?:\.(\d+))?$/;

/** US dollars, the currency every rate is quoted against. */
const usd: Currency = (() => {
  const found = currencies.get('USD');
  if (!found) throw new Error('the currency table has no USD');
  return found;
})();

function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function rational(num: bigint, den: bigint): Rational {
  if (den === 0n) throw new RangeError('zero denominator');
  const sign = den < 0n ? -1n : 1n;
  const divisor = gcd(num, den) || 1n;
  return { num: (sign * num) / divisor, den: (sign * den) / divisor };
}

function add(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den + b.num * a.den, a.den * b.den);
}

function multiply(a: Rational, b: Rational): Rational {
  return rational(a.num * b.num, a.den * b.den);
}

function integerOf(minor: number): bigint {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an integer amount: ${minor}`);
  return BigInt(minor);
}

function safeNumber(value: bigint): number {
  const result = Number(value);
  if (!Number.isSafeInteger(result)) throw new RangeError(`amount out of range: ${value}`);
  return result;
}

/**
 * The nearest integer, halves away from zero (what "half-up" means for money: 0.5 → 1, -0.5 → -1).
 * Every amount cobro rounds is positive, where this is plain half-up.
 */
export function roundHalfUp(value: Rational): bigint {
  const magnitude = value.num < 0n ? -value.num : value.num;
  // Truncating division of (2|n| + d) / 2d is floor(|n|/d + 1/2).
  const rounded = (2n * magnitude + value.den) / (2n * value.den);
  return value.num < 0n ? -rounded : rounded;
}

/** The currency's `perUsd` (units of it one USD buys) as an exact fraction: "153.2" is 766/5. */
export function usdRate(currency: Currency): Rational {
  const match = decimalPattern.exec(currency.perUsd);
  if (!match) throw new RangeError(`${currency.code} has no decimal rate: ${currency.perUsd}`);
  const fraction = match[2] ?? '';
  const rate = rational(BigInt((match[1] as string) + fraction), pow10(fraction.length));
  if (rate.num === 0n) throw new RangeError(`${currency.code} has a zero rate`);
  return rate;
}

/** The exact value of `minor` units of `from` in minor units of `to` (not rounded). */
function exactConversion(minor: bigint, from: Currency, to: Currency): Rational {
  const fromRate = usdRate(from);
  const toRate = usdRate(to);
  // minor / 10^from.precision is `from` major units; ÷ fromRate is USD; × toRate is `to` major units.
  return rational(
    minor * fromRate.den * toRate.num * pow10(to.precision),
    pow10(from.precision) * fromRate.num * toRate.den,
  );
}

/** Minor units of `from` in minor units of `to` through the USD rates, rounded half-up once at the end. */
export function convertMinor(minor: number, from: Currency, to: Currency): number {
  return safeNumber(roundHalfUp(exactConversion(integerOf(minor), from, to)));
}

/**
 * The processing fee of a charge and what the merchant keeps, in the charge's minor units:
 * 2.9 % of the amount plus USD 0.30 converted to its currency, summed exactly and rounded half-up
 * once on the total (1000 JPY: 29 + 45.96 = 74.96 → 75), so no part is rounded on its own.
 */
export function chargeFee(minor: number, currency: Currency): { fee: number; net: number } {
  const amount = integerOf(minor);
  const percentPart = multiply({ num: amount, den: 1n }, feePercent);
  const fixedPart = exactConversion(BigInt(feeFixedUsdCents), usd, currency);
  const fee = safeNumber(roundHalfUp(add(percentPart, fixedPart)));
  return { fee, net: minor - fee };
}

/** Whether an amount is worth at least `usdCents` US cents, compared exactly through the rates. */
export function worthAtLeast(minor: number, currency: Currency, usdCents: number): boolean {
  const value = exactConversion(integerOf(minor), currency, usd);
  return value.num >= BigInt(usdCents) * value.den;
}

/** Whether an amount is worth at least USD 1.00, compared exactly (154 JPY is, 153 JPY is not). */
export function minimumMet(minor: number, currency: Currency): boolean {
  return worthAtLeast(minor, currency, minimumUsdCents);
}

/** The smallest amount of a currency worth USD 1.00 (154 JPY, 0.307 KWD): what minimumMet accepts first. */
export function minimumAmount(currency: Currency): number {
  const exact = exactConversion(BigInt(minimumUsdCents), usd, currency);
  return safeNumber((exact.num + exact.den - 1n) / exact.den);
}

/** The list view's exchange numbers and local currency of a charge (its list view). */
export interface ExchangeFields {
  /** USD per USD: payouts are in USD, so always 1. */
  exchange_usd_to_payout: number;
  /** USD (the payout currency) one unit of the charge currency is worth: 1 / perUsd. */
  exchange_original_payout_to_usd: number;
  /** Units of the charge currency one USD buys: the table's perUsd (153.2 for JPY). */
  exchange_usd_to_local: number;
  /** USD one unit of the charge currency is worth: 1 / perUsd (0.00652742 for JPY). */
  exchange_original_local_to_usd: number;
  /** The charge currency's code, lower case like the view's `currency`. */
  currency_local: string;
}

/**
 * The exchange numbers of a charge for display. "Local" is the charge's currency and "payout" is
 * USD (cobro pays out in USD); each `a_to_b` is units of b per unit of a. They come from the fixed
 * rate table, so they do not depend on the amount; `minor` is taken so a per-charge rate snapshot
 * can replace the table without changing callers. Rounded to 6 significant digits; display only,
 * never fed back into money arithmetic.
 */
export function exchangeFields(minor: number, currency: Currency): ExchangeFields {
  integerOf(minor); // still refused when it is not an amount, as every other function here does
  const rate = usdRate(currency);
  const inverse = rational(rate.den, rate.num);
  return {
    exchange_usd_to_payout: 1,
    exchange_original_payout_to_usd: significant(inverse, 6),
    exchange_usd_to_local: significant(rate, 6),
    exchange_original_local_to_usd: significant(inverse, 6),
    currency_local: currency.code.toLowerCase(),
  };
}

/**
 * Minor units as a JS number of major units (1050 USD is 10.5, 1000 JPY is 1000) for the list view's
 * numeric `amount`, `fee` and `net`. Display only: the number is the nearest double to the exact
 * decimal and must never be used for arithmetic.
 */
export function formatMajor(minor: number, currency: Currency): number {
  return Number(formatAmount(minor, currency));
}

/** A positive fraction rounded half-up to `digits` significant digits, as the nearest double. */
function significant(value: Rational, digits: number): number {
  if (value.num <= 0n) throw new RangeError('only positive values are displayed this way');
  // The power of ten that puts exactly `digits` digits before the point, found by exact comparison.
  let exponent = digits - 1 - (value.num.toString().length - value.den.toString().length);
  const scaledBy = (power: number) =>
    power >= 0 ? multiply(value, rational(pow10(power), 1n)) : multiply(value, rational(1n, pow10(-power)));
  const below = (r: Rational, bound: bigint) => r.num < bound * r.den;
  while (!below(scaledBy(exponent), pow10(digits))) exponent -= 1;
  while (below(scaledBy(exponent), pow10(digits - 1))) exponent += 1;
  // Rounding 999999.5 up to 1000000 still reads right: the text below carries the exponent.
  // The decimal text is parsed by the engine, which picks the nearest double exactly.
  return Number(`${roundHalfUp(scaledBy(exponent))}e${-exponent}`);
}
