/**
 * Money as integer minor units (docs/design.md#money). Amounts arrive as decimal strings (or integer
 * JSON numbers), are parsed exactly from their digits, never through a float, and leave as decimal
 * strings at the currency's precision.
 */
import type { Lang } from '../messages.ts';
import type { Currency } from './currencies.ts';

/** Largest amount cobro takes, in minor units: 12 digits, far inside Number.MAX_SAFE_INTEGER. */
export const maxMinorUnits = 999_999_999_999;

export type AmountProblem = 'format' | 'precision' | 'not_positive' | 'too_large';

export type ParsedAmount = { ok: true; minor: number } | { ok: false; problem: AmountProblem };

const decimalPattern = /^(\d+)(?:\.(\d+))?$/;

/**
 * A positive amount in a currency's minor units. `"10.5"` USD is 1050; `"10.505"` USD has more
 * decimals than USD allows and is refused, as is `"1000.0"` JPY. A JSON number is taken only
 * when it is an integer (the JSON parser hands other numbers over as their source text).
 */
export function parseAmount(input: unknown, currency: Currency): ParsedAmount {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isSafeInteger(input)) return { ok: false, problem: 'format' };
    text = String(input);
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    return { ok: false, problem: 'format' };
  }
  const match = decimalPattern.exec(text);
  if (!match) return { ok: false, problem: text.startsWith('-') ? 'not_positive' : 'format' };
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (fraction.length > currency.precision) return { ok: false, problem: 'precision' };
  const digits = (whole + fraction.padEnd(currency.precision, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > String(maxMinorUnits).length) return { ok: false, problem: 'too_large' };
  const minor = Number(digits);
  if (minor > maxMinorUnits) return { ok: false, problem: 'too_large' };
  if (minor === 0) return { ok: false, problem: 'not_positive' };
  return { ok: true, minor };
}

/** Minor units as the decimal string the API answers: 1050 USD is "10.50", 1000 JPY is "1000". */
export function formatAmount(minor: number, currency: Currency): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an integer amount: ${minor}`);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(currency.precision + 1, '0');
  if (currency.precision === 0) return sign + digits;
  const cut = digits.length - currency.precision;
  return `${sign}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

/** A value in `scale` implied decimals for comparing amounts of different precisions (1 USD at scale 3 is 1000). */
export function scaled(minor: number, currency: Currency, scale: number): number {
  return minor * 10 ** (scale - currency.precision);
}

/**
 * A non-negative decimal string with at most `scale` decimals as an integer of `scale` implied
 * decimals ("10.5" at scale 3 is 10500); undefined when it is not one.
 */
export function parseScaledDecimal(text: string, scale: number): number | undefined {
  const match = decimalPattern.exec(text.trim());
  if (!match) return undefined;
  const fraction = match[2] ?? '';
  if (fraction.length > scale) return undefined;
  const value = Number((match[1] as string) + fraction.padEnd(scale, '0'));
  return Number.isSafeInteger(value) ? value : undefined;
}

/** How each language writes a number: the thousands separator and the decimal mark. */
const numberMarks: Record<Lang, { thousands: string; decimal: string }> = {
  en: { thousands: ',', decimal: '.' },
  es: { thousands: '.', decimal: ',' },
};

/**
 * Minor units as a person reads them in `language`, with the currency's code after: 123456 USD is
 * "1,234.56 USD" in English and "1.234,56 USD" in Spanish, 1200 JPY "1,200 JPY". Every text a
 * customer reads (e-mails, receipts, hosted pages) writes money with this; the API's JSON keeps
 * formatAmount's plain decimal ("19.80"), which machines read. Built from formatAmount's digits,
 * never through a float, so it always shows exactly the amount held.
 */
export function displayAmount(minor: number, currency: Currency, language: Lang): string {
  const marks = numberMarks[language] ?? numberMarks.en;
  const plain = formatAmount(minor, currency);
  const sign = plain.startsWith('-') ? '-' : '';
  const [whole = '', fraction] = plain.slice(sign.length).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, marks.thousands);
  return `${sign}${grouped}${fraction === undefined ? '' : marks.decimal + fraction} ${currency.code}`;
}
