import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { percentDecode } from './percent.ts';
import { allowedMethodsIn, matchPath } from './route.ts';

describe('percentDecode', () => {
  it('decodes well-formed escapes as decodeURIComponent does', () => {
    expect(percentDecode('caf%C3%A9%20%F0%9F%98%80')).toBe('café 😀');
    expect(percentDecode('plain-id_1')).toBe('plain-id_1');
  });

  it('never throws: malformed escapes stay, bytes that are not UTF-8 become U+FFFD', () => {
    expect(percentDecode('%ED%A0%80')).toBe('\uFFFD\uFFFD\uFFFD');
    expect(percentDecode('%FF')).toBe('\uFFFD');
    expect(percentDecode('%E2%82')).toBe('\uFFFD');
    expect(percentDecode('%')).toBe('%');
    expect(percentDecode('a%zz')).toBe('a%zz');
  });

  it('answers well-formed text for any input, and round-trips what encodeURIComponent wrote', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('%', 'E', 'D', 'A', '0', '8', 'F', 'x', 'C') }),
        (text) => {
          expect(percentDecode(text).isWellFormed()).toBe(true);
        },
      ),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(percentDecode(encodeURIComponent(text))).toBe(text);
      }),
    );
  });
});

describe('matchPath', () => {
  it('reads a malformed parameter as text instead of throwing', () => {
    expect(matchPath('/v1/plans/{id}/', '/v1/plans/%ED%A0%80/')).toEqual({ id: '\uFFFD\uFFFD\uFFFD' });
    expect(matchPath('/media/{name}', '/media/%')).toEqual({ name: '%' });
    expect(matchPath('/v1/plans/{id}/', '/v1/plans/a%2Fb/')).toEqual({ id: 'a/b' });
    expect(matchPath('/v1/plans/{id}/', '/v1/products/x/')).toBeNull();
  });

  it('lets the fallback find the methods of a path whose parameter is malformed', () => {
    const table = [
      ['GET', '/v1/events/{id}/'],
      ['POST', '/v1/events/{id}/redeliver/'],
    ] as const;
    expect(allowedMethodsIn(table, '/v1/events/%ED%A0%80/')).toEqual(['GET']);
  });
});
