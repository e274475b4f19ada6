import { describe, expect, it } from 'vitest';
import { currencyOf } from '../../test/support/money.ts';
import {
  displayCard,
  displayCardBrand,
  displayDate,
  displayDateTime,
  displayEvery,
  displayItem,
  displayPeriod,
  displayPrice,
} from './display.ts';

describe('displayDate and displayDateTime', () => {
  it('write one day the same way in each language, in UTC', () => {
    expect(displayDate('2026-11-26T23:59:59.999Z', 'en')).toBe('26 Nov 2026');
    expect(displayDate('2026-11-26T23:59:59.999Z', 'es')).toBe('26 nov 2026');
    expect(displayDate('2027-01-01T00:30:00+02:00', 'en')).toBe('31 Dec 2026');
    expect(displayDate('2026-09-05T00:00:00Z', 'es')).toBe('5 sept 2026');
  });

  it('write a moment to the minute, never the seconds, and say it is UTC', () => {
    expect(displayDateTime('2026-11-26T14:05:59.000Z', 'en')).toBe('26 Nov 2026, 14:05 UTC');
    expect(displayDateTime('2026-11-26T09:00:01Z', 'es')).toBe('26 nov 2026, 09:00 UTC');
  });

  it('show text that is no date as given', () => {
    expect(displayDate('soon', 'en')).toBe('soon');
    expect(displayDateTime('', 'es')).toBe('');
  });
});

describe('displayCard', () => {
  it('writes a brand one way whatever its case', () => {
    for (const brand of ['visa', 'Visa', 'VISA', ' visa '])
      expect(displayCardBrand(brand, 'en')).toBe('Visa');
    expect(displayCardBrand('amex', 'es')).toBe('American Express');
    expect(displayCardBrand('unknown', 'en')).toBe('Card');
    expect(displayCardBrand(null, 'es')).toBe('Tarjeta');
  });

  it('shows the brand and the last 4 digits only', () => {
    expect(displayCard({ brand: 'VISA', last4: '4242' }, 'en')).toBe('Visa •••• 4242');
    expect(displayCard({ brand: 'mastercard', last4: '4444' }, 'es')).toBe('Mastercard •••• 4444');
    expect(displayCard({ brand: 'visa', last4: '' }, 'en')).toBe('Visa');
  });
});

describe('a recurring price', () => {
  const silver = {
    unitAmount: 990,
    quantity: 2,
    currency: currencyOf('USD'),
    interval: 'month',
    intervalCount: 1,
  };

  it('names the item with its quantity, and alone for one', () => {
    expect(displayItem({ name: 'Silver', quantity: 2 })).toBe('Silver × 2');
    expect(displayItem({ name: 'Silver', quantity: 1 })).toBe('Silver');
  });

  it('shows the unit price, the quantity and the total per interval', () => {
    expect(displayPrice(silver, 'en')).toBe('9.90 USD × 2 = 19.80 USD / month');
    expect(displayPrice(silver, 'es')).toBe('9,90 USD × 2 = 19,80 USD / mes');
    expect(displayPrice({ ...silver, quantity: 1 }, 'en')).toBe('9.90 USD / month');
    expect(displayPrice({ ...silver, intervalCount: 3 }, 'en')).toBe(
      '9.90 USD × 2 = 19.80 USD every 3 months',
    );
    expect(displayPrice({ ...silver, intervalCount: 3 }, 'es')).toBe('9,90 USD × 2 = 19,80 USD cada 3 meses');
    expect(displayPrice({ ...silver, unitAmount: 99_900, quantity: 3, interval: 'year' }, 'es')).toBe(
      '999,00 USD × 3 = 2.997,00 USD / año',
    );
  });

  it('says how often, in both languages', () => {
    expect(displayEvery('year', 1, 'en')).toBe('/ year');
    expect(displayEvery('year', 2, 'en')).toBe('every 2 years');
    expect(displayEvery('month', 1, 'es')).toBe('/ mes');
  });

  it('writes a period from its first day to its last', () => {
    expect(displayPeriod('2026-11-26T10:00:00Z', '2026-12-26T10:00:00Z', 'en')).toBe(
      '26 Nov 2026 – 26 Dec 2026',
    );
    expect(displayPeriod('2026-11-26T10:00:00Z', '2027-01-26T10:00:00Z', 'es')).toBe(
      '26 nov 2026 – 26 ene 2027',
    );
  });
});
