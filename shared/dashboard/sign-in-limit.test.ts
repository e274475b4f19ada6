/** The sign-in limit's pure parts: what an address counts as, its windows, and the 429 form's words. */
import { describe, expect, it } from 'vitest';
import { signInPage } from './shell.ts';
import { addressHash, countedAddress, signInWindowMs, signInWindowOf } from './sign-in-limit.ts';

describe('countedAddress', () => {
  it('keeps an IPv4 address, unwraps an IPv4-mapped one, and cuts IPv6 to its /64', () => {
    expect(countedAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(countedAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(countedAddress('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(countedAddress('2001:db8:7:1::2')).toBe('2001:db8:7:1::/64');
    expect(countedAddress('2001:0DB8:0007:0001:ffff:1:2:3')).toBe('2001:db8:7:1::/64');
    expect(countedAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(countedAddress('::1')).toBe('0:0:0:0::/64');
    expect(countedAddress('a::b:c:d:e:1.2.3.4')).toBe('a:0:b:c::/64');
    expect(countedAddress('unknown')).toBe('unknown');
  });

  it('hashes what is counted under the key, never the address in clear', () => {
    const one = addressHash('2001:db8:7:1::2', 'k');
    expect(one).toMatch(/^[0-9a-f]{64}$/);
    expect(addressHash('2001:db8:7:1::99', 'k')).toBe(one);
    expect(addressHash('2001:db8:7:1::2', 'other')).not.toBe(one);
    expect(addressHash('203.0.113.7', 'k')).toBe(addressHash('::ffff:203.0.113.7', 'k'));
  });
});

describe('signInWindowOf', () => {
  it('is the window of the clock the moment falls in, its start in the key', () => {
    const start = Date.UTC(2026, 2, 4, 5, 15);
    for (const at of [start, start + 1, start + signInWindowMs - 1]) {
      const window = signInWindowOf('h', new Date(at));
      expect(window).toEqual({
        key: { pk: 'DASHBOARD_SIGN_IN#h', sk: `WINDOW#${start}` },
        startMs: start,
        endMs: start + signInWindowMs,
      });
    }
    expect(signInWindowOf('h', new Date(start + signInWindowMs)).startMs).toBe(start + signInWindowMs);
  });
});

describe('the blocked sign-in form', () => {
  const context = { root: 'https://pay.example.com/dashboard', csrf: 't'.repeat(32) };
  it('answers 429 and says how long to wait, in English and Spanish, with the form', () => {
    const en = signInPage({ ...context, lang: 'en' }, { blocked: 'address', retryAfterSeconds: 61 });
    expect(en.status).toBe(429);
    expect(en.html).toContain('Too many failed sign-ins from this address. Wait 2 minutes and try again');
    expect(en.html).toContain('role="alert"');
    expect(en.html).toContain('name="password"');
    const es = signInPage({ ...context, lang: 'es' }, { blocked: 'address', retryAfterSeconds: 1 });
    expect(es.status).toBe(429);
    expect(es.html).toContain('Demasiados inicios de sesión fallidos desde esta dirección. Espera 1 minuto');
  });
});
