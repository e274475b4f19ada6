/** Currencies and amounts for the money unit tests: a currency by code, and fast-check arbitraries. */
import fc from 'fast-check';
import { maxMinorUnits } from '../../shared/core/money/amount.ts';
import { type Currency, currencies, findCurrency } from '../../shared/core/money/currencies.ts';

/** The currency of `code`; throws when the table lacks it, since the test needs it. */
export const currencyOf = (code: string): Currency => {
  const currency = findCurrency(code);
  if (!currency) throw new Error(`test needs ${code}`);
  return currency;
};

/** Any currency of the table. */
export const anyCurrency = fc.constantFrom(...currencies.values());

/** Any positive amount in minor units cobro accepts (at most 12 digits). */
export const anyMinor = fc.integer({ min: 1, max: maxMinorUnits });
