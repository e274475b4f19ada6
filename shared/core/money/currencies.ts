/**
 * The one checked-in table of currencies cobro accepts: how many decimals each is answered
 * with, and how many of its units one US dollar buys. The rates decide the "USD 1.00 equivalent"
 * minimum and the exchange fields of a charge; they are a fixed snapshot, changed only by a commit.
 */

export interface Currency {
  /** ISO 4217 code, upper case. */
  code: string;
  /** Decimals of its minor unit: 0 for JPY and CLP, 3 for KWD, 2 for the rest. */
  precision: 0 | 2 | 3;
  /** Units of this currency one USD buys, as an exact decimal string (never a float). */
  perUsd: string;
}

/** Snapshot of 2026-11-01. */
const table = [
  { code: 'USD', precision: 2, perUsd: '1' },
  { code: 'EUR', precision: 2, perUsd: '0.86' },
  { code: 'GBP', precision: 2, perUsd: '0.76' },
  { code: 'CRC', precision: 2, perUsd: '502.5' },
  { code: 'MXN', precision: 2, perUsd: '18.40' },
  { code: 'COP', precision: 2, perUsd: '3880' },
  { code: 'JPY', precision: 0, perUsd: '153.2' },
  { code: 'CLP', precision: 0, perUsd: '945' },
  { code: 'KWD', precision: 3, perUsd: '0.3068' },
  { code: 'CAD', precision: 2, perUsd: '1.40' },
  { code: 'BRL', precision: 2, perUsd: '5.38' },
  { code: 'PEN', precision: 2, perUsd: '3.38' },
] as const satisfies readonly Currency[];

export type CurrencyCode = (typeof table)[number]['code'];

export const currencies: ReadonlyMap<string, Currency> = new Map(table.map((row) => [row.code, row]));

/** Every supported code, in table order. */
export const currencyCodes = table.map((row) => row.code) as readonly CurrencyCode[];

/** The currency for a code in any letter case, or undefined when cobro does not take it. */
export function findCurrency(code: string): Currency | undefined {
  return currencies.get(code.toUpperCase());
}
