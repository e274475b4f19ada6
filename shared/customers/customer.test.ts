import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { textRuleOf } from '../core/validation.ts';
import { cardholderNames } from './customer.ts';
import { CreateCustomerSchema, customerLimits } from './schemas.ts';

const graphemes = (text: string) => [...new Intl.Segmenter().segment(text)].map((part) => part.segment);

describe('cardholderNames', () => {
  it.each([
    ['Ana María Pérez', 'Ana María', 'Pérez'],
    ['  Grace   Brewster Hopper ', 'Grace Brewster', 'Hopper'],
    ['Cher', 'Cher', 'Cher'],
    // Cut at 50 characters, each a grapheme: never half a surrogate pair or emoji, then trimmed.
    [`a${'𝒜'.repeat(60)} B`, `a${'𝒜'.repeat(49)}`, 'B'],
    [`b${'👍🏽'.repeat(60)} C`, `b${'👍🏽'.repeat(49)}`, 'C'],
    [`d${'e\u0301'.repeat(60)} F`, `d${'e\u0301'.repeat(49)}`, 'F'],
    [`${'x'.repeat(49)} ${'y'.repeat(100)} z`, 'x'.repeat(49), 'z'],
    ['W'.repeat(200), 'W'.repeat(50), 'W'.repeat(50)],
  ])('%s → %s / %s', (name, first, last) => {
    expect(cardholderNames(name)).toEqual({ first_name: first, last_name: last });
  });

  it('makes, from any name the pay form takes, names POST /v1/customers/ takes as they are', () => {
    // Characters that catch a cut by UTF-16 units or by code points, and spaces JavaScript trims.
    const character = fc.constantFrom(
      ' ',
      ' ',
      '\u00a0',
      '\u3000',
      'a',
      'é',
      'e\u0301',
      '𝒜',
      '👍🏽',
      '👩‍👩‍👧',
      'İ',
      '\u0301',
    );
    const name = fc
      .array(character, { minLength: 1, maxLength: 200 })
      .map((parts) => [...parts.join('')].slice(0, 200).join('').trim())
      .filter((typed) => typed !== '' && textRuleOf(typed, 'one') === undefined);
    fc.assert(
      fc.property(name, (typed) => {
        const names = cardholderNames(typed);
        for (const part of [names.first_name, names.last_name]) {
          expect(part.length).toBeGreaterThan(0);
          expect(graphemes(part).length).toBeLessThanOrEqual(customerLimits.name);
        }
        const fields = { ...names, email: 'payer@example.com' };
        const parsed = v.safeParse(CreateCustomerSchema, fields);
        expect(parsed.issues?.map((issue) => issue.message)).toBeUndefined();
        expect(parsed.output).toMatchObject(fields);
      }),
      { numRuns: 300 },
    );
  });
});
