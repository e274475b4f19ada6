/**
 * Checks of a card the cardholder typed into the checkout form (docs/design.md#test-cards), before
 * any acquirer sees it: a number that fails Luhn, a past expiry or a malformed CVC is a validation
 * error (400), not a decline. Problems name the form's fields so the page can show each next to its
 * input.
 */
import type { CardBrand, CardInput, CardSummary } from './acquirer.ts';

/** The form's card fields, as problems name them. */
export type CardField = 'card_number' | 'exp_month' | 'exp_year' | 'cvc';

/**
 * - `missing`: empty or absent.
 * - `format`: not the shape the field takes (letters, wrong length, month 13…).
 * - `luhn`: a well-formed number whose check digit is wrong.
 * - `expired`: a well-formed expiry before the current month.
 */
export type CardProblemCode = 'missing' | 'format' | 'luhn' | 'expired';

export interface CardProblem {
  field: CardField;
  code: CardProblemCode;
}

/** The form's values as posted; any may be absent. */
export interface RawCardInput {
  number?: string | undefined;
  expMonth?: string | undefined;
  expYear?: string | undefined;
  cvc?: string | undefined;
  holderName?: string | undefined;
}

export type CardValidation =
  | { ok: true; card: CardInput; brand: CardBrand }
  | { ok: false; problems: CardProblem[] };

/** Card numbers have 12 to 19 digits (ISO/IEC 7812). */
const numberPattern = /^\d{12,19}$/;

/** A typed card number as its digits: spaces and dashes between digits are dropped; undefined when anything else is in it. */
export function cardDigits(text: string): string | undefined {
  const trimmed = text.trim();
  if (!/^\d(?:[\d -]*\d)?$/.test(trimmed)) return undefined;
  return trimmed.replace(/[ -]/g, '');
}

/** Whether a string of digits passes the Luhn check (its last digit is the check digit). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    // Every second digit from the right, starting left of the check digit, counts double.
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The card network of a number, from its leading digits; `unknown` when none matches. */
export function detectBrand(digits: string): CardBrand {
  const prefix = (length: number) => Number(digits.slice(0, length));
  const within = (length: number, low: number, high: number) =>
    digits.length >= length && prefix(length) >= low && prefix(length) <= high;
  if (digits.startsWith('4')) return 'visa';
  if (within(2, 51, 55) || within(4, 2221, 2720)) return 'mastercard';
  if (within(2, 34, 34) || within(2, 37, 37)) return 'amex';
  if (digits.startsWith('6011') || within(2, 65, 65) || within(3, 644, 649)) return 'discover';
  if (within(4, 3528, 3589)) return 'jcb';
  if (within(2, 62, 62)) return 'unionpay';
  return 'unknown';
}

/** An expiry month, 1 to 12, with or without a leading zero; undefined otherwise. */
export function parseExpMonth(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^\d{1,2}$/.test(trimmed)) return undefined;
  const month = Number(trimmed);
  return month >= 1 && month <= 12 ? month : undefined;
}

/** An expiry year of 2 digits (this century) or 4 digits, as four digits; undefined otherwise. */
export function parseExpYear(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d{2}$/.test(trimmed)) return 2000 + Number(trimmed);
  if (/^\d{4}$/.test(trimmed)) return Number(trimmed);
  return undefined;
}

/** Whether a card has expired at `now`: it is good through the last day of its month (UTC). */
export function isExpired(expMonth: number, expYear: number, now: Date): boolean {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  return expYear < year || (expYear === year && expMonth < month);
}

/** Whether a CVC fits the brand: 4 digits on American Express, 3 or 4 on any other card. */
export function cvcValid(cvc: string, _brand: CardBrand): boolean {
  // A CVC is 3 or 4 digits whatever the brand (American Express prints 4, but 3 is accepted too).
  return /^\d{3,4}$/.test(cvc);
}

/**
 * The posted card normalised for the acquirer, or every problem with it at once so the form can
 * mark all its wrong fields in one round trip.
 */
export function validateCard(input: RawCardInput, now: Date): CardValidation {
  const problems: CardProblem[] = [];
  const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

  let number: string | undefined;
  let digits: string | undefined;
  if (!present(input.number)) {
    problems.push({ field: 'card_number', code: 'missing' });
  } else {
    digits = cardDigits(input.number);
    if (digits === undefined || !numberPattern.test(digits)) {
      problems.push({ field: 'card_number', code: 'format' });
    } else if (!luhnValid(digits)) {
      problems.push({ field: 'card_number', code: 'luhn' });
    } else {
      number = digits;
    }
  }

  let expMonth: number | undefined;
  if (!present(input.expMonth)) problems.push({ field: 'exp_month', code: 'missing' });
  else {
    expMonth = parseExpMonth(input.expMonth);
    if (expMonth === undefined) problems.push({ field: 'exp_month', code: 'format' });
  }

  let expYear: number | undefined;
  if (!present(input.expYear)) problems.push({ field: 'exp_year', code: 'missing' });
  else {
    expYear = parseExpYear(input.expYear);
    if (expYear === undefined) problems.push({ field: 'exp_year', code: 'format' });
  }

  if (expMonth !== undefined && expYear !== undefined && isExpired(expMonth, expYear, now)) {
    // A past year is the year's fault; this year with a past month is the month's.
    const field = expYear < now.getUTCFullYear() ? 'exp_year' : 'exp_month';
    problems.push({ field, code: 'expired' });
  }

  // The CVC's length depends on the brand, read from the digits even when their check digit is wrong.
  const brand = digits === undefined ? 'unknown' : detectBrand(digits);
  const cvc = input.cvc?.trim() ?? '';
  if (cvc === '') problems.push({ field: 'cvc', code: 'missing' });
  else if (!cvcValid(cvc, brand)) problems.push({ field: 'cvc', code: 'format' });

  if (problems.length > 0 || number === undefined || expMonth === undefined || expYear === undefined) {
    return { ok: false, problems };
  }
  return {
    ok: true,
    brand,
    card: { number, expMonth, expYear, cvc, holderName: input.holderName?.trim() ?? '' },
  };
}

/**
 * What may be stored of a card (never the number or CVC): brand, last four digits, expiry month and
 * year, country.
 */
export function summarizeCard(card: CardInput, country: string): CardSummary {
  return {
    brand: detectBrand(card.number),
    last4: card.number.slice(-4),
    expMonth: card.expMonth,
    expYear: card.expYear,
    country,
  };
}
