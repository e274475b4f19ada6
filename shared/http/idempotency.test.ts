import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fingerprintInput, fingerprint as keyedFingerprint } from './idempotency.ts';

const secret = 'unit-test-fingerprint-secret';
const fingerprint = (method: string, path: string, body: unknown) =>
  keyedFingerprint(method, path, body, secret);

/** The same JSON value with the keys of every object in another order (Fisher-Yates by the given seeds). */
function shuffleKeys(value: unknown, seeds: number[]): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, seeds));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i > 0; i--) {
      const seed = seeds.length ? (seeds[i % seeds.length] as number) : 0;
      const j = seed % (i + 1);
      [entries[i], entries[j]] = [entries[j] as [string, unknown], entries[i] as [string, unknown]];
    }
    // fromEntries defines own properties, so a "__proto__" key stays a key.
    return Object.fromEntries(entries.map(([key, item]) => [key, shuffleKeys(item, seeds)]));
  }
  return value;
}

describe('fingerprint', () => {
  const body = {
    name: 'Gold',
    amount: '10.50',
    interval: 'month',
    metadata: { a: 1, b: [1, { y: 2, x: 1 }] },
  };
  const same = {
    metadata: { b: [1, { x: 1, y: 2 }], a: 1 },
    interval: 'month',
    amount: '10.50',
    name: 'Gold',
  };

  it('is an HMAC-SHA256 in hex, keyed: not the plain hash of the request, and another key gives another', () => {
    expect(fingerprint('POST', '/v1/plans/', body)).toMatch(/^[0-9a-f]{64}$/);
    const plain = createHash('sha256')
      .update(fingerprintInput('POST', '/v1/plans/', body))
      .digest('hex');
    expect(fingerprint('POST', '/v1/plans/', body)).not.toBe(plain);
    expect(keyedFingerprint('POST', '/v1/plans/', body, `${secret}2`)).not.toBe(
      fingerprint('POST', '/v1/plans/', body),
    );
  });

  it('does not depend on key order, at any depth', () => {
    expect(fingerprint('POST', '/v1/plans/', same)).toBe(fingerprint('POST', '/v1/plans/', body));
  });

  it('does not depend on a trailing slash', () => {
    expect(fingerprint('POST', '/v1/plans', body)).toBe(fingerprint('POST', '/v1/plans/', body));
    expect(fingerprint('POST', '/v1/plans//', body)).toBe(fingerprint('POST', '/v1/plans', body));
    expect(fingerprint('POST', '/', body)).toBe(fingerprint('POST', '', body));
  });

  it('ignores keys whose value is undefined, as JSON does', () => {
    expect(fingerprint('POST', '/v1/plans/', { ...body, description: undefined })).toBe(
      fingerprint('POST', '/v1/plans/', body),
    );
  });

  it('differs for another body, method or path', () => {
    const base = fingerprint('POST', '/v1/plans/', body);
    expect(fingerprint('POST', '/v1/plans/', { ...body, amount: '10.51' })).not.toBe(base);
    expect(fingerprint('POST', '/v1/plans/', { ...body, amount: 10.5 })).not.toBe(base);
    expect(fingerprint('POST', '/v1/plans/', { ...body, extra: null })).not.toBe(base);
    expect(fingerprint('POST', '/v1/plans/', [body])).not.toBe(base);
    expect(fingerprint('POST', '/v1/plans/', JSON.stringify(body))).not.toBe(base);
    expect(fingerprint('PUT', '/v1/plans/', body)).not.toBe(base);
    expect(fingerprint('POST', '/v1/products/', body)).not.toBe(base);
    expect(fingerprint('POST', '/v1/plans/abc/', body)).not.toBe(base);
  });

  it('takes an uploaded file by its digest: small, quick, and another file gives another fingerprint', () => {
    const file = (bytes: Buffer) => ({
      name: 'Mug',
      image_default: { filename: 'a.png', type: 'image/png', bytes },
    });
    const big = Buffer.alloc(5 * 1024 * 1024, 7);
    const started = performance.now();
    const input = fingerprintInput('POST', '/v1/products/', file(big));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(input.length).toBeLessThan(300);
    expect(input).toContain(createHash('sha256').update(big).digest('hex'));
    const other = Buffer.from(big);
    other[0] = 8;
    expect(fingerprint('POST', '/v1/products/', file(other))).not.toBe(
      fingerprint('POST', '/v1/products/', file(big)),
    );
    expect(fingerprint('POST', '/v1/products/', file(Buffer.from(big)))).toBe(
      fingerprint('POST', '/v1/products/', file(big)),
    );
  });

  it('keeps array order', () => {
    expect(fingerprint('POST', '/x', { list: [1, 2] })).not.toBe(fingerprint('POST', '/x', { list: [2, 1] }));
  });

  it('tells keys from values and nesting apart', () => {
    expect(fingerprint('POST', '/x', { a: 'b' })).not.toBe(fingerprint('POST', '/x', { b: 'a' }));
    expect(fingerprint('POST', '/x', { a: { b: 1 } })).not.toBe(fingerprint('POST', '/x', { 'a.b': 1 }));
    expect(fingerprint('POST', '/x', { a: '1' })).not.toBe(fingerprint('POST', '/x', { a: 1 }));
    expect(fingerprint('POST', '/x', { 'a":1,"b': 2 })).not.toBe(fingerprint('POST', '/x', { a: 1, b: 2 }));
  });

  it('is the same for a JSON value with its keys shuffled', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.constantFrom('POST', 'PUT', 'PATCH'),
        fc.constantFrom('/v1/plans/', '/v1/plans', '/v1/payments/links/'),
        (value, seeds, method, path) => {
          expect(fingerprint(method, path, shuffleKeys(value, seeds))).toBe(fingerprint(method, path, value));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is the same after a JSON round trip and differs for a changed body', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (value, key) => {
        const print = fingerprint('POST', '/v1/plans/', value);
        expect(fingerprint('POST', '/v1/plans/', JSON.parse(JSON.stringify(value)))).toBe(print);
        const changed = { ...value, [key]: { changed: Object.hasOwn(value, key) ? value[key] : null } };
        expect(fingerprint('POST', '/v1/plans/', changed)).not.toBe(print);
      }),
      { numRuns: 200 },
    );
  });
});
