import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CardBrand } from './acquirer.ts';
import {
  cardDigits,
  cvcValid,
  detectBrand,
  isExpired,
  luhnValid,
  parseExpMonth,
  parseExpYear,
  summarizeCard,
  validateCard,
} from './cards.ts';

/** Mid-month, so "this month" and "last month" are unambiguous in every time zone. */
const now = new Date('2026-11-15T12:00:00Z');

/** The check digit that makes `body` pass Luhn, computed the textbook way (double from the right). */
function checkDigit(body: string): string {
  const digits = [...body].reverse().map(Number);
  const sum = digits.reduce((total, digit, i) => {
    if (i % 2 === 1) return total + digit;
    const doubled = digit * 2;
    return total + (doubled > 9 ? doubled - 9 : doubled);
  }, 0);
  return String((10 - (sum % 10)) % 10);
}

const digitString = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });
const luhnNumber = digitString(11, 18).map((body) => body + checkDigit(body));

const valid = {
  number: '4242 4242 4242 4242',
  expMonth: '12',
  expYear: '2030',
  cvc: '123',
  holderName: 'Ada',
};

describe('luhnValid', () => {
  it.each([
    '4242424242424242',
    '4000000000003220',
    '4000000000000002',
    '4000000000009995',
    '4000000000000069',
    '4000000000000127',
    '4000000000000341',
    '378282246310005',
    '5555555555554444',
    '2223003122003222',
    '6011111111111117',
    '3530111333300000',
    '6200000000000005',
  ])('accepts %s', (number) => {
    expect(luhnValid(number)).toBe(true);
  });

  it.each(['4242424242424241', '4000000000003221', '1234567812345678', '', '4242 4242 4242 4242', 'abcd'])(
    'refuses %j',
    (number) => {
      expect(luhnValid(number)).toBe(false);
    },
  );

  it('accepts every number completed with its check digit', () => {
    fc.assert(
      fc.property(luhnNumber, (number) => {
        expect(luhnValid(number)).toBe(true);
      }),
    );
  });

  it('refuses a valid number with any one digit changed', () => {
    const changed = luhnNumber.chain((number) =>
      fc.tuple(
        fc.constant(number),
        fc.integer({ min: 0, max: number.length - 1 }),
        fc.integer({ min: 1, max: 9 }),
      ),
    );
    fc.assert(
      fc.property(changed, ([number, position, shift]) => {
        const digit = (Number(number[position]) + shift) % 10;
        const altered = number.slice(0, position) + digit + number.slice(position + 1);
        expect(altered).not.toBe(number);
        expect(luhnValid(altered)).toBe(false);
      }),
    );
  });

  it('accepts exactly one of the ten possible check digits', () => {
    fc.assert(
      fc.property(digitString(11, 18), (body) => {
        const passing = [...'0123456789'].filter((digit) => luhnValid(body + digit));
        expect(passing).toEqual([checkDigit(body)]);
      }),
    );
  });
});

describe('cardDigits', () => {
  it.each<[string, string | undefined]>([
    ['4242424242424242', '4242424242424242'],
    ['4242 4242 4242 4242', '4242424242424242'],
    ['4242-4242-4242-4242', '4242424242424242'],
    [' 4242 4242-4242 4242 ', '4242424242424242'],
    ['4242.4242.4242.4242', undefined],
    ['4242 4242 4242 424a', undefined],
    ['-4242424242424242', undefined],
    ['', undefined],
  ])('%j is %j', (text, digits) => {
    expect(cardDigits(text)).toBe(digits);
  });
});

describe('detectBrand', () => {
  it.each<[string, CardBrand]>([
    ['4242424242424242', 'visa'],
    ['4000000000003220', 'visa'],
    ['5100000000000000', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['5599999999999999', 'mastercard'],
    ['5000000000000000', 'unknown'],
    ['5600000000000000', 'unknown'],
    ['2221000000000000', 'mastercard'],
    ['2720999999999999', 'mastercard'],
    ['2220999999999999', 'unknown'],
    ['2721000000000000', 'unknown'],
    ['340000000000000', 'amex'],
    ['378282246310005', 'amex'],
    ['350000000000000', 'unknown'],
    ['6011111111111117', 'discover'],
    ['6500000000000000', 'discover'],
    ['6440000000000000', 'discover'],
    ['6490000000000000', 'discover'],
    ['6430000000000000', 'unknown'],
    ['6012000000000000', 'unknown'],
    ['3528000000000000', 'jcb'],
    ['3589000000000000', 'jcb'],
    ['3527000000000000', 'unknown'],
    ['6200000000000005', 'unionpay'],
    ['1234567812345670', 'unknown'],
    ['', 'unknown'],
  ])('%s is %s', (number, brand) => {
    expect(detectBrand(number)).toBe(brand);
  });
});

describe('expiry', () => {
  it.each<[string, number | undefined]>([
    ['1', 1],
    ['01', 1],
    ['9', 9],
    ['09', 9],
    ['12', 12],
    [' 7 ', 7],
    ['0', undefined],
    ['00', undefined],
    ['13', undefined],
    ['012', undefined],
    ['1a', undefined],
    ['-1', undefined],
    ['', undefined],
  ])('month %j is %j', (text, month) => {
    expect(parseExpMonth(text)).toBe(month);
  });

  it.each<[string, number | undefined]>([
    ['26', 2026],
    ['2026', 2026],
    ['00', 2000],
    ['99', 2099],
    ['2030', 2030],
    ['6', undefined],
    ['202', undefined],
    ['20260', undefined],
    ['2o26', undefined],
    ['', undefined],
  ])('year %j is %j', (text, year) => {
    expect(parseExpYear(text)).toBe(year);
  });

  it('takes a card through the last moment of its month, in UTC', () => {
    expect(isExpired(11, 2026, now)).toBe(false);
    expect(isExpired(10, 2026, now)).toBe(true);
    expect(isExpired(12, 2025, now)).toBe(true);
    expect(isExpired(1, 2027, now)).toBe(false);
    expect(isExpired(11, 2026, new Date('2026-11-30T23:59:59.999Z'))).toBe(false);
    expect(isExpired(11, 2026, new Date('2026-12-01T00:00:00.000Z'))).toBe(true);
    expect(isExpired(12, 2026, new Date('2027-01-01T00:00:00.000Z'))).toBe(true);
  });

  it.each<[string, string, boolean]>([
    ['11', '26', true], // this month, 2-digit year
    ['11', '2026', true],
    ['10', '26', false], // last month
    ['12', '25', false],
    ['1', '27', true],
    ['01', '2027', true],
  ])('form month %s year %s is valid: %s', (expMonth, expYear, ok) => {
    expect(validateCard({ ...valid, expMonth, expYear }, now).ok).toBe(ok);
  });

  it('blames the month for this year and the year for a past year', () => {
    expect(validateCard({ ...valid, expMonth: '10', expYear: '26' }, now)).toEqual({
      ok: false,
      problems: [{ field: 'exp_month', code: 'expired' }],
    });
    expect(validateCard({ ...valid, expMonth: '12', expYear: '2025' }, now)).toEqual({
      ok: false,
      problems: [{ field: 'exp_year', code: 'expired' }],
    });
  });
});

describe('cvcValid', () => {
  it.each<[string, CardBrand, boolean]>([
    ['123', 'visa', true],
    ['1234', 'visa', true],
    ['12', 'visa', false],
    ['12345', 'visa', false],
    ['12a', 'visa', false],
    ['', 'visa', false],
    ['123', 'mastercard', true],
    ['1234', 'amex', true],
    ['123', 'amex', true],
    ['12345', 'amex', false],
    ['123', 'unknown', true],
  ])('%j on %s is %s', (cvc, brand, ok) => {
    expect(cvcValid(cvc, brand)).toBe(ok);
  });
});

describe('validateCard', () => {
  it('normalises a valid card', () => {
    expect(
      validateCard({ ...valid, expMonth: '03', expYear: '29', holderName: '  Ada Lovelace ' }, now),
    ).toEqual({
      ok: true,
      brand: 'visa',
      card: {
        number: '4242424242424242',
        expMonth: 3,
        expYear: 2029,
        cvc: '123',
        holderName: 'Ada Lovelace',
      },
    });
    expect(validateCard({ ...valid, number: '3782-822463-10005', cvc: '1234' }, now)).toMatchObject({
      ok: true,
      brand: 'amex',
      card: { number: '378282246310005' },
    });
  });

  it('reports every field problem at once, by form field name', () => {
    expect(
      validateCard({ number: '4242 4242 4242 4241', expMonth: '13', expYear: '202', cvc: '12' }, now),
    ).toEqual({
      ok: false,
      problems: [
        { field: 'card_number', code: 'luhn' },
        { field: 'exp_month', code: 'format' },
        { field: 'exp_year', code: 'format' },
        { field: 'cvc', code: 'format' },
      ],
    });
    expect(validateCard({}, now)).toEqual({
      ok: false,
      problems: [
        { field: 'card_number', code: 'missing' },
        { field: 'exp_month', code: 'missing' },
        { field: 'exp_year', code: 'missing' },
        { field: 'cvc', code: 'missing' },
      ],
    });
  });

  it.each<[string, string]>([
    ['4242 4242 4242 424x', 'format'],
    ['42424242424', 'format'], // 11 digits
    ['42424242424242424242', 'format'], // 20 digits
    ['4242424242424241', 'luhn'],
    ['   ', 'missing'],
  ])('refuses card number %j as %s', (number, code) => {
    expect(validateCard({ ...valid, number }, now)).toEqual({
      ok: false,
      problems: [{ field: 'card_number', code }],
    });
  });

  it('takes 3 or 4 CVC digits on American Express too, and reports a CVC problem beside a Luhn one', () => {
    expect(validateCard({ ...valid, number: '378282246310005', cvc: '123' }, now)).toMatchObject({
      ok: true,
    });
    expect(validateCard({ ...valid, number: '378282246310006', cvc: '12' }, now)).toEqual({
      ok: false,
      problems: [
        { field: 'card_number', code: 'luhn' },
        { field: 'cvc', code: 'format' },
      ],
    });
  });

  it('accepts any Luhn-valid number of 12 to 19 digits', () => {
    fc.assert(
      fc.property(luhnNumber, (number) => {
        const result = validateCard({ ...valid, number, cvc: '1234' }, now);
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.card.number).toBe(number);
      }),
    );
  });
});

describe('summarizeCard', () => {
  it('keeps brand, last four, expiry and country, and nothing of the number or CVC', () => {
    const card = { number: '5555555555554444', expMonth: 7, expYear: 2031, cvc: '987', holderName: 'Ada' };
    const summary = summarizeCard(card, 'US');
    expect(summary).toEqual({
      brand: 'mastercard',
      last4: '4444',
      expMonth: 7,
      expYear: 2031,
      country: 'US',
    });
    expect(JSON.stringify(summary)).not.toContain('555555555555');
    expect(JSON.stringify(summary)).not.toContain('987');
  });
});
