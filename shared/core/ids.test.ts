import { describe, expect, it } from 'vitest';
import { isBareId, isPrefixedId, isToken, prefixedId, randomToken } from './ids.ts';

describe('id formats', () => {
  it('recognises what prefixedId and randomToken make, and nothing else', () => {
    const id = prefixedId('pay');
    expect(isPrefixedId(id, 'pay')).toBe(true);
    expect(isPrefixedId(id, 'ch')).toBe(false);
    expect(isPrefixedId(`${id}x`, 'pay')).toBe(false);
    expect(isPrefixedId('pay_../../etc/passwd000000', 'pay')).toBe(false);
    expect(isBareId(id.slice(4))).toBe(true);
    expect(isBareId(`${id.slice(4)}#`)).toBe(false);
    expect(isToken(randomToken(40), 40)).toBe(true);
    expect(isToken(randomToken(40), 24)).toBe(false);
    expect(isToken(`${randomToken(39)}-`, 40)).toBe(false);
  });
});
