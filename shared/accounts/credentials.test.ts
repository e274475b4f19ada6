import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apiKeyPattern,
  generateApiKey,
  generateClientSecret,
  hashSecret,
  maskKey,
  readAuthorization,
  secretMatches,
} from './credentials.ts';

describe('API keys', () => {
  it('are of the cobro format, carry their mode and never repeat', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey('test')));
    expect(keys.size).toBe(500);
    for (const key of keys) expect(key).toMatch(apiKeyPattern);
    expect(generateApiKey('live').startsWith('sk_live_')).toBe(true);
  });

  it('mask keeps the prefix and the last four characters and hides the rest', () => {
    fc.assert(
      fc.property(fc.constantFrom<'test' | 'live'>('test', 'live'), (mode) => {
        const key = generateApiKey(mode);
        const masked = maskKey(key);
        expect(masked).toHaveLength(key.length);
        expect(masked.startsWith(`sk_${mode}_`)).toBe(true);
        expect(masked.endsWith(key.slice(-4))).toBe(true);
        expect(masked.slice(8, -4)).toMatch(/^\*+$/);
      }),
    );
  });

  it('hashes compare only with their own secret', () => {
    const secret = generateClientSecret();
    expect(secretMatches(secret, hashSecret(secret))).toBe(true);
    expect(secretMatches(`${secret}x`, hashSecret(secret))).toBe(false);
    expect(secretMatches(secret, 'not-hex')).toBe(false);
    expect(hashSecret(secret)).not.toContain(secret);
  });
});

describe('readAuthorization', () => {
  const key = generateApiKey('test');
  it.each([
    [undefined, { kind: 'missing' }],
    ['   ', { kind: 'missing' }],
    [`Api-Key ${key}`, { kind: 'key', key }],
    [`api-key   ${key}`, { kind: 'key', key }],
    [`Basic ${Buffer.from(`${key}:`).toString('base64')}`, { kind: 'key', key }],
    [`Basic ${Buffer.from(key).toString('base64')}`, { kind: 'key', key }],
    ['Bearer abc.def.ghi', { kind: 'token', token: 'abc.def.ghi' }],
    ['Bearer', { kind: 'malformed' }],
    ['Api-Key sk_test_tooshort', { kind: 'malformed' }],
    [`Digest ${key}`, { kind: 'malformed' }],
    [key, { kind: 'malformed' }],
  ])('%s', (header, expected) => {
    expect(readAuthorization(header)).toEqual(expected);
  });

  it('never throws, whatever the header', () => {
    fc.assert(
      fc.property(fc.string(), (header) => {
        expect(['missing', 'malformed', 'key', 'token']).toContain(readAuthorization(header).kind);
      }),
    );
  });
});
