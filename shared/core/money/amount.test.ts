import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyCurrency, anyMinor, currencyOf } from '../../../test/support/money.ts';
import {
  displayAmount,
  formatAmount,
  maxMinorUnits,
  parseAmount,
  parseScaledDecimal,
  scaled,
} from './amount.ts';
import { type Currency, currencies, currencyCodes, findCurrency } from './currencies.ts';

const USD = currencyOf('USD');
const JPY = currencyOf('JPY');
const KWD = currencyOf('KWD');

const digits = (options: { minLength?: number; maxLength?: number }) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), ...options });

/** The exact value of an amount at 3 implied decimals, from its formatted text, with BigInt. */
const exactAtScale3 = (minor: number, currency: Currency): bigint =>
  BigInt(formatAmount(minor, currency).replace('.', '')) * 10n ** BigInt(3 - currency.precision);

/** An independent reading of parseScaledDecimal's contract: exact digits, BigInt, safe range. */
function referenceScaled(text: string, scale: number): number | undefined {
  const trimmed = text.trim();
  const parts = trimmed.split('.');
  if (parts.length > 2) return undefined;
  const [whole = '', fraction] = parts;
  const allDigits = (part: string) => part.length > 0 && [...part].every((ch) => ch >= '0' && ch <= '9');
  if (!allDigits(whole)) return undefined;
  if (fraction !== undefined && !allDigits(fraction)) return undefined;
  const frac = fraction ?? '';
  if (frac.length > scale) return undefined;
  const value = BigInt(whole + frac.padEnd(scale, '0'));
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}

describe('currencies', () => {
  it('has every currency cobro takes, with its precision', () => {
    const expected: Record<string, number> = {
      USD: 2,
      EUR: 2,
      GBP: 2,
      CRC: 2,
      MXN: 2,
      COP: 2,
      JPY: 0,
      CLP: 0,
      KWD: 3,
    };
    for (const [code, precision] of Object.entries(expected)) {
      expect(currencies.get(code)?.precision, code).toBe(precision);
      expect(currencyCodes).toContain(code);
    }
  });

  it('gives precision 0 only to JPY and CLP, 3 only to KWD, 2 to the rest', () => {
    for (const currency of currencies.values()) {
      const want = ['JPY', 'CLP'].includes(currency.code) ? 0 : currency.code === 'KWD' ? 3 : 2;
      expect(currency.precision, currency.code).toBe(want);
    }
  });

  it('keys the map by upper-case ISO code and lists the same codes', () => {
    expect([...currencies.keys()]).toEqual([...currencyCodes]);
    for (const [code, currency] of currencies) {
      expect(currency.code).toBe(code);
      expect(code).toMatch(/^[A-Z]{3}$/);
    }
  });

  it('has every rate as a positive exact decimal string', () => {
    for (const currency of currencies.values()) {
      expect(typeof currency.perUsd, currency.code).toBe('string');
      expect(currency.perUsd, currency.code).toMatch(/^\d+(\.\d+)?$/);
      expect(/[1-9]/.test(currency.perUsd), `${currency.code} rate is zero`).toBe(true);
    }
    expect(USD.perUsd).toBe('1');
  });

  it('finds a currency in any letter case and nothing for an unknown code', () => {
    expect(findCurrency('usd')).toBe(USD);
    expect(findCurrency('Jpy')).toBe(JPY);
    expect(findCurrency('kWd')).toBe(KWD);
    expect(findCurrency('XXX')).toBeUndefined();
    expect(findCurrency('')).toBeUndefined();
    expect(findCurrency('US')).toBeUndefined();
  });
});

describe('parseAmount', () => {
  it.each<[unknown, Currency, number]>([
    ['10.5', USD, 1050],
    ['10.50', USD, 1050],
    [10, USD, 1000],
    ['10', USD, 1000],
    [' 10.5 ', USD, 1050],
    ['0.01', USD, 1],
    ['000012.3', USD, 1230],
    ['1.5', KWD, 1500],
    ['0.001', KWD, 1],
    ['1000', JPY, 1000],
    [1000, JPY, 1000],
    ['9999999999.99', USD, maxMinorUnits],
    [String(maxMinorUnits), JPY, maxMinorUnits],
  ])('%j %s is %i minor units', (input, currency, minor) => {
    expect(parseAmount(input, currency)).toEqual({ ok: true, minor });
  });

  it.each<[unknown, Currency, string]>([
    ['0', USD, 'not_positive'],
    ['0.00', USD, 'not_positive'],
    [0, USD, 'not_positive'],
    ['-1', USD, 'not_positive'],
    [-1, USD, 'not_positive'],
    ['-0.5', USD, 'not_positive'],
    ['1e3', USD, 'format'],
    [' ', USD, 'format'],
    ['', USD, 'format'],
    ['abc', USD, 'format'],
    ['1,5', USD, 'format'],
    ['+1', USD, 'format'],
    ['1.', USD, 'format'],
    ['.5', USD, 'format'],
    ['1 000', USD, 'format'],
    [1.5, USD, 'format'],
    [Number.NaN, USD, 'format'],
    [Number.POSITIVE_INFINITY, USD, 'format'],
    [null, USD, 'format'],
    [undefined, USD, 'format'],
    [true, USD, 'format'],
    [{ amount: '1' }, USD, 'format'],
    ['10.505', USD, 'precision'],
    ['1000.0', JPY, 'precision'],
    ['1.0000', KWD, 'precision'],
    ['10000000000.00', USD, 'too_large'],
    ['1000000000000', JPY, 'too_large'],
    [maxMinorUnits + 1, JPY, 'too_large'],
    ['1000000000', KWD, 'too_large'],
    ['99999999999999999999999999', USD, 'too_large'],
  ])('%j %s is refused as %s', (input, currency, problem) => {
    expect(parseAmount(input, currency)).toEqual({ ok: false, problem });
  });

  it('reads back every amount formatAmount writes, in every currency', () => {
    fc.assert(
      fc.property(anyCurrency, anyMinor, (currency, minor) => {
        expect(parseAmount(formatAmount(minor, currency), currency)).toEqual({ ok: true, minor });
      }),
    );
  });

  it('refuses more decimals than the currency has, even when they are zeros', () => {
    fc.assert(
      fc.property(
        anyCurrency,
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        (currency, whole, extra, zeros) => {
          const length = currency.precision + extra;
          const fraction = zeros ? '0'.repeat(length) : `${'0'.repeat(length - 1)}1`;
          expect(parseAmount(`${whole}.${fraction}`, currency)).toEqual({ ok: false, problem: 'precision' });
        },
      ),
    );
  });
});

describe('formatAmount', () => {
  it.each<[number, Currency, string]>([
    [5, USD, '0.05'],
    [50, USD, '0.50'],
    [1050, USD, '10.50'],
    [1000, USD, '10.00'],
    [1000, JPY, '1000'],
    [1, JPY, '1'],
    [1500, KWD, '1.500'],
    [1, KWD, '0.001'],
    [maxMinorUnits, USD, '9999999999.99'],
    [-5, USD, '-0.05'],
  ])('%i %s is %s', (minor, currency, text) => {
    expect(formatAmount(minor, currency)).toBe(text);
  });

  it('writes exactly the currency precision in decimals', () => {
    fc.assert(
      fc.property(anyCurrency, anyMinor, (currency, minor) => {
        const text = formatAmount(minor, currency);
        const pattern =
          currency.precision === 0 ? /^[1-9]\d*$/ : new RegExp(`^\\d+\\.\\d{${currency.precision}}$`);
        expect(text).toMatch(pattern);
        // No superfluous leading zeros: "0.05", never "00.05".
        expect(text).not.toMatch(/^0\d/);
      }),
    );
  });

  it('refuses a non-integer amount', () => {
    expect(() => formatAmount(1.5, USD)).toThrow(RangeError);
    expect(() => formatAmount(Number.NaN, USD)).toThrow(RangeError);
  });
});

describe('scaled', () => {
  it('puts one unit of every currency at 1000 at scale 3', () => {
    expect(scaled(100, USD, 3)).toBe(1000);
    expect(scaled(1, JPY, 3)).toBe(1000);
    expect(scaled(1000, KWD, 3)).toBe(1000);
    expect(scaled(1050, USD, 3)).toBe(10500);
  });

  it('orders amounts of any currencies as their decimal values order', () => {
    fc.assert(
      fc.property(anyCurrency, anyMinor, anyCurrency, anyMinor, (c1, m1, c2, m2) => {
        const s1 = scaled(m1, c1, 3);
        const s2 = scaled(m2, c2, 3);
        expect(Number.isSafeInteger(s1)).toBe(true);
        const e1 = exactAtScale3(m1, c1);
        const e2 = exactAtScale3(m2, c2);
        expect(Math.sign(s1 - s2)).toBe(e1 < e2 ? -1 : e1 > e2 ? 1 : 0);
      }),
    );
  });

  it('agrees with parseScaledDecimal of the formatted amount', () => {
    fc.assert(
      fc.property(anyCurrency, anyMinor, (currency, minor) => {
        expect(parseScaledDecimal(formatAmount(minor, currency), 3)).toBe(scaled(minor, currency, 3));
      }),
    );
  });
});

describe('parseScaledDecimal', () => {
  it.each<[string, number, number | undefined]>([
    ['10.5', 3, 10500],
    ['10', 3, 10000],
    ['0', 3, 0],
    [' 7.25 ', 2, 725],
    ['1.234', 3, 1234],
    ['1.2345', 3, undefined],
    ['-1', 3, undefined],
    ['1e3', 3, undefined],
    ['', 3, undefined],
    ['abc', 3, undefined],
    ['9007199254740991', 0, Number.MAX_SAFE_INTEGER],
    ['9007199254740992', 0, undefined],
    ['9007199254740.992', 3, undefined],
  ])('%j at scale %i is %s', (text, scale, expected) => {
    expect(parseScaledDecimal(text, scale)).toBe(expected);
  });

  const decimalText = fc
    .tuple(
      fc.constantFrom('', ' ', '\t'),
      digits({ minLength: 1, maxLength: 20 }),
      fc.option(digits({ minLength: 0, maxLength: 6 }), { nil: undefined }),
      fc.constantFrom('', ' ', '\n'),
    )
    .map(
      ([before, whole, fraction, after]) =>
        `${before}${whole}${fraction === undefined ? '' : `.${fraction}`}${after}`,
    );

  it('agrees with a BigInt reference on decimal-looking text', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 4 }), (text, scale) => {
        expect(parseScaledDecimal(text, scale)).toBe(referenceScaled(text, scale));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with a BigInt reference on arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789.-+e ,') }),
        fc.integer({ min: 0, max: 4 }),
        (text, scale) => {
          expect(parseScaledDecimal(text, scale)).toBe(referenceScaled(text, scale));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('displayAmount', () => {
  it('writes thousands and decimals the way each language does', () => {
    expect(displayAmount(1980, USD, 'en')).toBe('19.80 USD');
    expect(displayAmount(1980, USD, 'es')).toBe('19,80 USD');
    expect(displayAmount(123456, USD, 'en')).toBe('1,234.56 USD');
    expect(displayAmount(123456, USD, 'es')).toBe('1.234,56 USD');
    expect(displayAmount(999_999_999_999, USD, 'en')).toBe('9,999,999,999.99 USD');
    expect(displayAmount(0, USD, 'es')).toBe('0,00 USD');
    expect(displayAmount(5, USD, 'en')).toBe('0.05 USD');
    expect(displayAmount(-123456, USD, 'es')).toBe('-1.234,56 USD');
  });

  it('writes a 0-decimal currency with no decimal mark and a 3-decimal one with three', () => {
    expect(displayAmount(1200, JPY, 'en')).toBe('1,200 JPY');
    expect(displayAmount(1200, JPY, 'es')).toBe('1.200 JPY');
    expect(displayAmount(999, JPY, 'es')).toBe('999 JPY');
    expect(displayAmount(1234567, KWD, 'en')).toBe('1,234.567 KWD');
    expect(displayAmount(1234567, KWD, 'es')).toBe('1.234,567 KWD');
  });

  it('reads back to the same minor units in every currency and language', () => {
    const marks = { en: { thousands: ',', decimal: '.' }, es: { thousands: '.', decimal: ',' } } as const;
    fc.assert(
      fc.property(
        anyCurrency,
        fc.integer({ min: 0, max: maxMinorUnits }),
        fc.constantFrom('en', 'es'),
        (currency, minor, lang) => {
          const shown = displayAmount(minor, currency, lang);
          const { thousands, decimal } = marks[lang];
          const match = new RegExp(
            `^(\\d{1,3}(?:\\${thousands}\\d{3})*)(?:\\${decimal}(\\d+))? ${currency.code}$`,
          ).exec(shown);
          expect(match, shown).not.toBeNull();
          const [, whole = '', fraction = ''] = match ?? [];
          // The decimals are exactly the currency's precision, and the digits are the amount's.
          expect(fraction.length).toBe(currency.precision);
          expect(Number(whole.split(thousands).join('') + fraction)).toBe(minor);
          // The wire format is untouched: the same digits, a plain point, no grouping.
          expect(formatAmount(minor, currency).replace('.', '')).toBe(
            String(minor).padStart(currency.precision + 1, '0'),
          );
        },
      ),
    );
  });
});
