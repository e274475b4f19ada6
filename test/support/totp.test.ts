import { describe, expect, it } from 'vitest';
import { base32Bytes, hotp, totpCode } from './totp.ts';

describe('the tests’ own TOTP', () => {
  // RFC 4226, appendix D: the secret "12345678901234567890", counters 0 to 9.
  it('makes RFC 4226’s HOTP values', () => {
    const key = Buffer.from('12345678901234567890');
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(key, counter))).toEqual(expected);
  });

  // RFC 6238, appendix B, SHA-1 rows (8 digits there; the same truncation, 6 digits here are its tail).
  it('makes RFC 6238’s TOTP values', () => {
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'; // base32 of "12345678901234567890"
    expect(base32Bytes(secret).toString()).toBe('12345678901234567890');
    const rows: [number, string][] = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
    ];
    for (const [seconds, code] of rows)
      expect(totpCode(secret, new Date(seconds * 1000))).toBe(code.slice(2));
  });
});
