import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SecretValues, secretUse } from './secrets.ts';

const cache = 300; // seconds
const at = (ms: number) => new Date(ms);
const putAt = Date.parse('2026-06-01T12:00:00Z');
const rotated: SecretValues = { current: 'new', previous: 'old', since: at(putAt) };

describe('secretUse', () => {
  it('uses the one value of a secret never replaced, whatever its age', () => {
    for (const age of [0, 1000, 10 * cache * 1000]) {
      expect(secretUse({ current: 'only', since: at(putAt) }, at(putAt + age), cache)).toEqual({
        sign: 'only',
        verify: ['only'],
        open: ['only'],
      });
    }
  });

  it('keeps signing with the previous value until the new one is older than the cache age', () => {
    const justPut = secretUse(rotated, at(putAt + 1000), cache);
    expect(justPut.sign).toBe('old');
    expect(justPut.verify).toEqual(['old', 'new']);
    expect(justPut.open).toEqual(['new', 'old']);

    const settled = secretUse(rotated, at(putAt + 2 * cache * 1000 - 1000), cache);
    expect(settled.sign).toBe('new');
    expect(settled.verify).toEqual(['new', 'old']);
  });

  it('stops verifying with the previous value after two cache ages, but still opens with it', () => {
    const later = secretUse(rotated, at(putAt + 3 * cache * 1000), cache);
    expect(later).toEqual({ sign: 'new', verify: ['new'], open: ['new', 'old'] });
  });

  it('what any function signs verifies on every function for a cache age after, however old their copies', () => {
    // A function's copy of the secret was read at most a cache age ago: before the value was put it
    // still holds the old values (replaced long before), after it the new ones.
    const before: SecretValues = { current: 'old', previous: 'older', since: at(putAt - 10 * cache * 1000) };
    const copyAt = (readAt: number) => (readAt < putAt ? before : rotated);
    const ms = cache * 1000;
    fc.assert(
      fc.property(
        fc.integer({ min: -3 * ms, max: 4 * ms }), // when the signature is made, from the put
        fc.integer({ min: 0, max: ms }), // how old the signer's copy is
        fc.integer({ min: 0, max: ms }), // how long after the signature it is verified
        fc.integer({ min: 0, max: ms }), // how old the verifier's copy is
        (signedAt, signerCopyAge, delay, verifierCopyAge) => {
          const signed = putAt + signedAt;
          const { sign } = secretUse(copyAt(signed - signerCopyAge), at(signed), cache);
          const verified = signed + delay;
          const { verify } = secretUse(copyAt(verified - verifierCopyAge), at(verified), cache);
          expect(verify).toContain(sign);
        },
      ),
    );
  });
});
