/**
 * Money as request and record fields: an amount field in a currency's minor units (or the 400 that
 * explains it), and the currency of a stored record.
 */
import { Invalid } from '../errors.ts';
import { coreMessages } from '../messages.ts';
import * as rules from '../rules.ts';
import { InvalidInput } from '../validation.ts';
import { formatAmount, maxMinorUnits, parseAmount } from './amount.ts';
import { type Currency, currencies, findCurrency } from './currencies.ts';
import { minimumAmount, minimumMet } from './fees.ts';

/** The currency of a stored record; an unknown one is a fault in the table, not the caller's. */
export function currencyOf(record: { currency: string }): Currency {
  const currency = findCurrency(record.currency);
  if (!currency) throw new Error(`stored record has an unknown currency ${record.currency}`);
  return currency;
}

/** A 400 (type danger) for an amount with more decimals than its currency has: refused, never rounded. */
export class PricePrecisionError extends Invalid {
  constructor(field: string, currency: Currency) {
    super(coreMessages.price_precision, {
      params: { field, currency: currency.code, precision: String(currency.precision) },
    });
  }
}

/** An amount field in minor units, or the 400 that explains it. */
export function amountField(value: unknown, currency: Currency, field = 'amount'): number {
  const parsed = parseAmount(value, currency);
  if (parsed.ok) return parsed.minor;
  if (parsed.problem === 'precision') throw new PricePrecisionError(field, currency);
  throw new InvalidInput([
    { field, rule: parsed.problem === 'too_large' ? rules.amount_too_large : rules.amount },
  ]);
}

/** A 400 unless the amount is worth at least USD 1.00; it names the minimum in the currency. */
export function assertMinimum(minor: number, currency: Currency): void {
  if (minimumMet(minor, currency)) return;
  const minimum = formatAmount(minimumAmount(currency), currency);
  throw new Invalid(coreMessages.amount_below_minimum, { params: { currency: currency.code, minimum } });
}

/**
 * The text parseAmount takes as a positive amount of `currency`: spaces around it (trimmed; a tab or
 * line break is not one line of text), digits, no more decimals than the currency has, not zero, and
 * no more digits than the largest amount once leading zeros are dropped.
 */
export function amountTextPattern(currency: Currency): string {
  const places = currency.precision;
  const whole = `0*[1-9]\\d{0,${String(maxMinorUnits).length - places - 1}}`;
  if (places === 0) return `^ *${whole} *$`;
  // Below 1: some decimal is not zero (`0.05`), with no more decimals than the currency has.
  const fractions = Array.from(
    { length: places },
    (_, zeros) => `${'0'.repeat(zeros)}[1-9]${zeros < places - 1 ? `\\d{0,${places - 1 - zeros}}` : ''}`,
  );
  return `^ *(?:${whole}(?:\\.\\d{1,${places}})?|0+\\.(?:${fractions.join('|')})) *$`;
}

/**
 * An amount whose currency the request does not name (a refund's is its charge's), as JSON Schema:
 * positive, with no more decimals than any currency has; the currency's own are in the description.
 */
export function amountInAnyCurrency() {
  const places = Math.max(...[...currencies.values()].map((currency) => currency.precision));
  const widest = [...currencies.values()].find((currency) => currency.precision === places) as Currency;
  return {
    anyOf: [
      {
        type: 'number',
        minimum: 10 ** -places,
        maximum: Number(formatAmount(maxMinorUnits, widest)),
        multipleOf: 10 ** -places,
      },
      { type: 'string', pattern: amountTextPattern(widest) },
    ],
  };
}

/**
 * What assertMinimum and amountField take in each currency, as JSON Schema keywords for the object
 * that holds an amount and its currency (the OpenAPI document shows them): per currency, an amount
 * of at least the USD 1.00 equivalent (or, with `minimum: false`, any positive amount) and at most
 * the largest amount, as a JSON number in steps of the currency's smallest unit, or as text
 * (amountTextPattern). JSON Schema cannot compare text as a number, so the text's minimum stays in
 * the description. `defaultCode` is the currency when the field is absent; `lowerCaseCodes` names
 * the currencies in lower case, as a form that documents them so sends them.
 */
export function amountBoundsByCurrency(
  field: string,
  currencyField: string,
  defaultCode: string,
  options: { minimum?: boolean; lowerCaseCodes?: boolean } = {},
) {
  const boundsIn = (currency: Currency) => ({
    properties: {
      [field]: {
        anyOf: [
          {
            type: 'number',
            minimum: Number(formatAmount(options.minimum === false ? 1 : minimumAmount(currency), currency)),
            maximum: Number(formatAmount(maxMinorUnits, currency)),
            multipleOf: 10 ** -currency.precision,
          },
          { type: 'string', pattern: amountTextPattern(currency) },
        ],
      },
    },
  });
  const inCurrency = (code: string) => ({
    if: {
      properties: { [currencyField]: { const: options.lowerCaseCodes ? code.toLowerCase() : code } },
      required: [currencyField],
    },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, a plain value never awaited
    then: boundsIn(findCurrency(code) as Currency),
  });
  const fallback = findCurrency(defaultCode);
  if (!fallback) throw new Error(`unknown default currency ${defaultCode}`);
  return {
    allOf: [
      ...[...currencies.keys()].map(inCurrency),
      {
        // Absent currency: the field is named under `properties` too (any value), as a schema
        // that requires a property should define it; it changes nothing about what is valid.
        if: { not: { properties: { [currencyField]: {} }, required: [currencyField] } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, a plain value never awaited
        then: boundsIn(fallback),
      },
    ],
  };
}
