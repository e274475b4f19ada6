import { describe, expect, it } from 'vitest';
import { displayCard, displayCardBrand, displayDate, displayDateTime } from './display.ts';

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
