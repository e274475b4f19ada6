import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyCurrency, anyMinor, currencyOf } from '../../../test/support/money.ts';
import { maxMinorUnits } from './amount.ts';
import { type Currency, currencies } from './currencies.ts';
import {
  chargeFee,
  convertMinor,
  exchangeFields,
  formatMajor,
  minimumAmount,
  minimumMet,
  roundHalfUp,
  usdRate,
} from './fees.ts';

const USD = currencyOf('USD');
const JPY = currencyOf('JPY');
const KWD = currencyOf('KWD');
const CLP = currencyOf('CLP');
const COP = currencyOf('COP');
const EUR = currencyOf('EUR');

/** The rate as an integer over a power of ten, read from the table's digits independently of fees.ts. */
function rateDigits(currency: Currency): { digits: bigint; scale: bigint } {
  const [whole = '', fraction = ''] = currency.perUsd.split('.');
  return { digits: BigInt(whole + fraction), scale: 10n ** BigInt(fraction.length) };
}

/** Schoolbook half-up division of non-negative integers: quotient, plus one when the remainder is half or more. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator - quotient * denominator;
  return 2n * remainder >= denominator ? quotient + 1n : quotient;
}

/**
 * The fee (2.9% plus USD 0.30) written out over one common denominator:
 * 29a/1000 + 30 × rate × 10^p / 100, where the rate is digits / scale, so
 * fee = (29a·scale·100 + 30·digits·10^p·1000) / (1000·100·scale).
 */
function referenceFee(minor: number, currency: Currency): bigint {
  const { digits, scale } = rateDigits(currency);
  const p = 10n ** BigInt(currency.precision);
  return divideHalfUp(29n * BigInt(minor) * scale * 100n + 30n * digits * p * 1000n, 1000n * 100n * scale);
}

/** The smallest amount worth USD 1.00, by counting up from the truncated equivalent. */
function referenceMinimum(currency: Currency): number {
  const { digits, scale } = rateDigits(currency);
  const p = 10n ** BigInt(currency.precision);
  // minor / p / rate >= 1  ⇔  minor · scale >= p · digits
  let minor = (p * digits) / scale;
  while (minor * scale < p * digits) minor += 1n;
  return Number(minor);
}

describe('usdRate', () => {
  it.each<[string, bigint, bigint]>([
    ['USD', 1n, 1n],
    ['JPY', 766n, 5n],
    ['KWD', 767n, 2500n],
    ['CLP', 945n, 1n],
    ['MXN', 92n, 5n],
    ['EUR', 43n, 50n],
  ])('%s is %i/%i in lowest terms', (code, num, den) => {
    expect(usdRate(currencyOf(code))).toEqual({ num, den });
  });

  it('equals the table decimal exactly for every currency', () => {
    for (const currency of currencies.values()) {
      const rate = usdRate(currency);
      const { digits, scale } = rateDigits(currency);
      expect(rate.num * scale, currency.code).toBe(digits * rate.den);
      expect(rate.den > 0n, currency.code).toBe(true);
    }
  });

  it('refuses a rate that is not a decimal string', () => {
    expect(() => usdRate({ code: 'XXX', precision: 2, perUsd: '1e3' })).toThrow(RangeError);
    expect(() => usdRate({ code: 'XXX', precision: 2, perUsd: '0.00' })).toThrow(RangeError);
  });
});

describe('roundHalfUp', () => {
  it.each<[bigint, bigint, bigint]>([
    [1n, 2n, 1n],
    [3n, 2n, 2n],
    [49n, 100n, 0n],
    [51n, 100n, 1n],
    [7496n, 100n, 75n],
    [-1n, 2n, -1n],
    [-49n, 100n, 0n],
    [10n, 5n, 2n],
  ])('%i/%i is %i', (num, den, want) => {
    expect(roundHalfUp({ num, den })).toBe(want);
  });
});

describe('convertMinor', () => {
  it.each<[number, string, string, number]>([
    [1000, 'USD', 'USD', 1000],
    [1532, 'JPY', 'USD', 1000],
    [1000, 'USD', 'JPY', 1532],
    [100, 'USD', 'KWD', 307], // 306.8
    [1, 'USD', 'CLP', 9], // 9.45
    [10, 'USD', 'CLP', 95], // 94.5: the half goes up
    [30, 'USD', 'CLP', 284], // 283.5
    [3, 'USD', 'COP', 11640],
    [86, 'EUR', 'USD', 100],
    [945, 'CLP', 'KWD', 307],
  ])('%i %s is %i %s', (minor, from, to, want) => {
    expect(convertMinor(minor, currencyOf(from), currencyOf(to))).toBe(want);
  });

  it('is the identity from a currency to itself', () => {
    fc.assert(
      fc.property(anyMinor, anyCurrency, (minor, currency) => {
        expect(convertMinor(minor, currency, currency)).toBe(minor);
      }),
    );
    expect(convertMinor(123_456, USD, USD)).toBe(123_456);
  });

  it('is monotonic in the amount', () => {
    fc.assert(
      fc.property(anyMinor, anyMinor, anyCurrency, anyCurrency, (a, b, from, to) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(convertMinor(low, from, to)).toBeLessThanOrEqual(convertMinor(high, from, to));
      }),
    );
  });

  it('agrees with a BigInt reference rounded half-up once', () => {
    fc.assert(
      fc.property(anyMinor, anyCurrency, anyCurrency, (minor, from, to) => {
        const f = rateDigits(from);
        const t = rateDigits(to);
        const want = divideHalfUp(
          BigInt(minor) * f.scale * t.digits * 10n ** BigInt(to.precision),
          10n ** BigInt(from.precision) * f.digits * t.scale,
        );
        expect(convertMinor(minor, from, to)).toBe(Number(want));
      }),
    );
  });

  it('refuses a non-integer amount', () => {
    expect(() => convertMinor(1.5, USD, JPY)).toThrow(RangeError);
  });
});

describe('chargeFee', () => {
  it.each<[number, string, number, number]>([
    [1000, 'USD', 59, 941], // 29 + 30
    [1000, 'JPY', 75, 925], // 29 + 45.96 = 74.96
    [1000, 'KWD', 121, 879], // 1.000 KWD: 29 + 92.04 = 121.04
    [10_000, 'KWD', 382, 9618], // 290 + 92.04
    [1500, 'KWD', 136, 1364], // 43.5 + 92.04 = 135.54
    [10_000, 'CLP', 574, 9426], // 290 + 283.5 = 573.5, the half goes up
    [1000, 'CLP', 313, 687], // 29 + 283.5 = 312.5
    [2500, 'CLP', 356, 2144], // 72.5 + 283.5 = 356 exactly
    [100, 'USD', 33, 67], // 2.9 + 30 = 32.9
  ])('%i %s has fee %i and net %i', (minor, code, fee, net) => {
    expect(chargeFee(minor, currencyOf(code))).toEqual({ fee, net });
  });

  it('rounds the total once, not each part', () => {
    // 259 JPY: 7.511 + 45.96 = 53.471 → 53, where rounding the parts first would give 8 + 46 = 54.
    // 260 JPY: 7.54 + 45.96 = 53.5 → 54 exactly at the half.
    expect(chargeFee(260, JPY).fee).toBe(54);
    expect(chargeFee(259, JPY).fee).toBe(53);
  });

  it('rounds exactly half up at constructed .5 boundaries', () => {
    // USD: 29a/1000 ends in .5 when a ≡ 500 (mod 1000); fee = 29k + 14.5 + 30.
    // CLP: 29a/1000 is whole when a ≡ 0 (mod 1000); fee = 29k + 283.5.
    // JPY: 29a/1000 ends in .54 when a ≡ 260 (mod 1000); fee = 29k + 7.54 + 45.96.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), (k) => {
        expect(chargeFee(500 + 1000 * k, USD).fee).toBe(29 * k + 45);
        expect(chargeFee(500 + 1000 * k - 1, USD).fee).toBe(29 * k + 44); // 44.471
        expect(chargeFee(1000 * (k + 1), CLP).fee).toBe(29 * (k + 1) + 284);
        expect(chargeFee(260 + 1000 * k, JPY).fee).toBe(29 * k + 54);
      }),
    );
  });

  it('agrees with a BigInt reference for random amounts in every currency', () => {
    fc.assert(
      fc.property(anyMinor, anyCurrency, (minor, currency) => {
        const { fee, net } = chargeFee(minor, currency);
        expect(fee).toBe(Number(referenceFee(minor, currency)));
        expect(net).toBe(minor - fee);
      }),
      { numRuns: 500 },
    );
    for (const currency of currencies.values()) {
      for (const minor of [1, 99, 100, 101, 999, 1000, 12_345, maxMinorUnits]) {
        expect(chargeFee(minor, currency).fee, `${minor} ${currency.code}`).toBe(
          Number(referenceFee(minor, currency)),
        );
      }
    }
  });

  it('makes net + fee the amount', () => {
    fc.assert(
      fc.property(anyMinor, anyCurrency, (minor, currency) => {
        const { fee, net } = chargeFee(minor, currency);
        expect(net + fee).toBe(minor);
        expect(Number.isSafeInteger(fee) && Number.isSafeInteger(net)).toBe(true);
      }),
    );
  });

  it('is never negative and never above the amount once the amount meets the minimum', () => {
    const atLeastMinimum = anyCurrency.chain((currency) =>
      fc.tuple(fc.constant(currency), fc.integer({ min: referenceMinimum(currency), max: maxMinorUnits })),
    );
    fc.assert(
      fc.property(atLeastMinimum, ([currency, minor]) => {
        expect(minimumMet(minor, currency)).toBe(true);
        const { fee, net } = chargeFee(minor, currency);
        expect(fee).toBeGreaterThanOrEqual(0);
        expect(fee).toBeLessThanOrEqual(minor);
        expect(net).toBeGreaterThanOrEqual(0);
      }),
    );
    for (const currency of currencies.values()) {
      const minor = referenceMinimum(currency);
      const { fee } = chargeFee(minor, currency);
      expect(fee, currency.code).toBeLessThan(minor);
    }
  });

  it('refuses a non-integer amount', () => {
    expect(() => chargeFee(10.5, USD)).toThrow(RangeError);
  });
});

describe('minimumMet', () => {
  it.each<[number, string, boolean]>([
    [100, 'USD', true],
    [99, 'USD', false],
    [154, 'JPY', true],
    [153, 'JPY', false], // 153 < 153.2
    [307, 'KWD', true],
    [306, 'KWD', false], // 0.306 < 0.3068
    [945, 'CLP', true],
    [944, 'CLP', false],
    [86, 'EUR', true],
    [85, 'EUR', false],
    [388_000, 'COP', true],
    [387_999, 'COP', false],
  ])('%i %s is %s', (minor, code, met) => {
    expect(minimumMet(minor, currencyOf(code))).toBe(met);
  });

  it('starts at minimumAmount in every currency', () => {
    for (const currency of currencies.values()) {
      expect(minimumAmount(currency), currency.code).toBe(referenceMinimum(currency));
      expect(minimumMet(minimumAmount(currency), currency)).toBe(true);
      expect(minimumMet(minimumAmount(currency) - 1, currency)).toBe(false);
    }
  });

  it('holds exactly from the smallest amount worth USD 1.00 upward', () => {
    fc.assert(
      fc.property(anyMinor, anyCurrency, (minor, currency) => {
        expect(minimumMet(minor, currency)).toBe(minor >= referenceMinimum(currency));
      }),
    );
  });
});

describe('exchangeFields', () => {
  it('gives the USD rates of the charge currency with USD as the payout currency', () => {
    expect(exchangeFields(1000, JPY)).toEqual({
      exchange_usd_to_payout: 1,
      exchange_original_payout_to_usd: 0.00652742, // 1 / 153.2 = 0.006527415…
      exchange_usd_to_local: 153.2,
      exchange_original_local_to_usd: 0.00652742,
      currency_local: 'jpy',
    });
    expect(exchangeFields(1000, USD)).toEqual({
      exchange_usd_to_payout: 1,
      exchange_original_payout_to_usd: 1,
      exchange_usd_to_local: 1,
      exchange_original_local_to_usd: 1,
      currency_local: 'usd',
    });
    expect(exchangeFields(1, KWD).exchange_original_local_to_usd).toBe(3.25945); // 3.259452…
    expect(exchangeFields(1, KWD).exchange_usd_to_local).toBe(0.3068);
    expect(exchangeFields(1, COP).exchange_original_local_to_usd).toBe(0.000257732); // 0.0002577319…
    expect(exchangeFields(1, EUR).exchange_original_local_to_usd).toBe(1.16279); // 1.162790…
    expect(exchangeFields(1, CLP).exchange_original_local_to_usd).toBe(0.0010582); // 0.001058201…
  });

  it('keeps every number within 6 significant digits of the exact rate', () => {
    for (const currency of currencies.values()) {
      const fields = exchangeFields(100, currency);
      const perUsd = Number(currency.perUsd);
      expect(fields.exchange_usd_to_local, currency.code).toBe(perUsd);
      expect(Math.abs(fields.exchange_original_local_to_usd * perUsd - 1), currency.code).toBeLessThan(1e-5);
      expect(fields.exchange_original_payout_to_usd).toBe(fields.exchange_original_local_to_usd);
      expect(Number(fields.exchange_original_local_to_usd.toPrecision(6))).toBe(
        fields.exchange_original_local_to_usd,
      );
      expect(fields.currency_local).toBe(currency.code.toLowerCase());
    }
  });
});

describe('formatMajor', () => {
  it.each<[number, string, number]>([
    [1050, 'USD', 10.5],
    [1, 'USD', 0.01],
    [1000, 'JPY', 1000],
    [1500, 'KWD', 1.5],
    [1, 'KWD', 0.001],
    [945, 'CLP', 945],
    [maxMinorUnits, 'USD', 9_999_999_999.99],
  ])('%i %s reads %d', (minor, code, want) => {
    expect(formatMajor(minor, currencyOf(code))).toBe(want);
  });
});
