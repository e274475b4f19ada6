import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { answerOf, statusOf } from '../http/errors.ts';
import { Invalid } from './errors.ts';
import { defineRules } from './rule.ts';
import * as rules from './rules.ts';
import {
  booleanField,
  describe as describeProblem,
  InvalidInput,
  integerField,
  isEmail,
  jsonTextRuleOf,
  type Problem,
  plainText,
  problemsOf,
  textField,
  textRuleOf,
  validate,
} from './validation.ts';

const Schema = v.strictObject({
  name: textField(5),
  note: v.optional(textField(5, { allowEmpty: true })),
  count: v.optional(integerField(1, 20)),
  enabled: v.optional(booleanField()),
  interval: v.optional(v.picklist(['month', 'year'])),
});

/** The problems `validate` reports for an input, or fails the test when it accepts it. */
function problems(input: unknown): readonly Problem[] {
  try {
    validate(Schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInput);
    return (error as InvalidInput).problems;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('isEmail', () => {
  it('takes an address only if it fits once lower-cased, as customers store it', () => {
    const local = 'a'.repeat(64);
    const fits = `${local}@${'b'.repeat(254 - 64 - 1 - 4)}.com`;
    expect(fits).toHaveLength(254);
    expect(isEmail(fits)).toBe(true);
    // The same length with a dotted capital I, which lower-cases to two code units: 255 once stored.
    const grows = `${local.slice(0, -1)}İ@${'b'.repeat(254 - 64 - 1 - 4)}.com`;
    expect(grows).toHaveLength(254);
    expect(grows.toLowerCase()).toHaveLength(255);
    expect(isEmail(grows)).toBe(false);
  });
});

describe('validate', () => {
  it('answers the parsed output of a valid body', () => {
    expect(validate(Schema, { name: '  Ana ', count: 3, enabled: true, interval: 'year' })).toEqual({
      name: 'Ana',
      count: 3,
      enabled: true,
      interval: 'year',
    });
  });

  it('reports a missing field as required', () => {
    expect(problems({})).toEqual([{ field: 'name', rule: rules.required }]);
  });

  it('reads no body as an empty object: the fields it needs are named', () => {
    expect(problems(undefined)).toEqual([{ field: 'name', rule: rules.required }]);
  });

  it('reports a field the schema does not have as unknown_field', () => {
    expect(problems({ name: 'Ana', colour: 'red' })).toEqual([
      { field: 'colour', rule: rules.unknown_field },
    ]);
  });

  it.each([
    ['an array', [{ name: 'Ana' }]],
    ['an empty array', []],
    ['null', null],
    ['a string', 'name=Ana'],
    ['a number', 12],
  ])('reports %s as body_object', (_label, input) => {
    expect(problems(input)).toEqual([{ field: 'body', rule: rules.body_object }]);
  });

  it('counts user-perceived characters: an emoji is one character', () => {
    // Five graphemes, far more than five UTF-16 code units.
    const five = '👍🏽👨‍👩‍👧🇨🇷éa';
    expect(five.length).toBeGreaterThan(5);
    expect(validate(Schema, { name: five }).name).toBe(five);
    expect(problems({ name: `${five}b` })).toEqual([
      { field: 'name', rule: rules.max_length, params: { limit: '5' } },
    ]);
  });

  it('reports text over the limit as max_length with the limit', () => {
    expect(problems({ name: 'abcdef' })).toEqual([
      { field: 'name', rule: rules.max_length, params: { limit: '5' } },
    ]);
  });

  it('trims text before counting, and reports blank required text as not_blank', () => {
    expect(validate(Schema, { name: '  abcde  ' }).name).toBe('abcde');
    expect(problems({ name: '   ' })).toEqual([{ field: 'name', rule: rules.not_blank }]);
    expect(validate(Schema, { name: 'a', note: '  ' }).note).toBe('');
  });

  it('reports text of another type as string', () => {
    expect(problems({ name: 12 })).toEqual([{ field: 'name', rule: rules.string }]);
  });

  it.each([
    [12, 12],
    ['12', 12],
    ['1', 1],
    [20, 20],
  ])('takes the integer %j', (count, expected) => {
    expect(validate(Schema, { name: 'a', count }).count).toBe(expected);
  });

  it.each(['1.5', 'abc', '', '-3', '1e1', 1.5, true])('reports %j as integer', (count) => {
    expect(problems({ name: 'a', count })).toEqual([{ field: 'count', rule: rules.integer }]);
  });

  it('reports integers outside the range as min_value / max_value with the limit', () => {
    expect(problems({ name: 'a', count: 0 })).toEqual([
      { field: 'count', rule: rules.min_value, params: { limit: '1' } },
    ]);
    expect(problems({ name: 'a', count: '21' })).toEqual([
      { field: 'count', rule: rules.max_value, params: { limit: '20' } },
    ]);
  });

  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['false', false],
  ])('takes the boolean %j', (enabled, expected) => {
    expect(validate(Schema, { name: 'a', enabled }).enabled).toBe(expected);
  });

  it.each(['yes', 'TRUE', '1', 1, 0])('reports %j as boolean', (enabled) => {
    expect(problems({ name: 'a', enabled })).toEqual([{ field: 'enabled', rule: rules.boolean }]);
  });

  it('reports a value outside a picklist as one_of, listing the options plainly', () => {
    const found = problems({ name: 'a', interval: 'week' });
    expect(found).toEqual([{ field: 'interval', rule: rules.one_of, params: { options: 'month, year' } }]);
    expect(describeProblem(found[0] as Problem, 'en')).toBe('interval must be one of: month, year.');
  });

  it('reports every field once, with its first problem', () => {
    const found = problems({ name: '', count: 'x', enabled: 'maybe', extra: 1 });
    expect(found.map((problem) => problem.field).sort()).toEqual(['count', 'enabled', 'extra', 'name']);
    expect(new Set(found.map((problem) => problem.field)).size).toBe(found.length);
  });
});

describe('problemsOf', () => {
  it('keeps only the first problem of a field', () => {
    const result = v.safeParse(
      v.object({ code: v.pipe(v.string(), v.maxLength(1), v.regex(/^\d+$/, rules.integer)) }),
      { code: 'ab' },
      { abortPipeEarly: false },
    );
    expect(result.success).toBe(false);
    expect(result.issues?.length).toBeGreaterThan(1);
    expect(problemsOf(result.issues ?? [])).toEqual([
      { field: 'code', rule: rules.max_length, params: { limit: '1' } },
    ]);
  });

  it('takes the rule given as the schema message and joins nested paths with dots', () => {
    const result = v.safeParse(v.object({ price: v.object({ currency: v.string(rules.currency) }) }), {
      price: { currency: 5 },
    });
    expect(problemsOf(result.issues ?? [])).toEqual([{ field: 'price.currency', rule: rules.currency }]);
  });

  it("takes an area's own rule, defined where it is used, with its sentences", () => {
    const areaRules = defineRules({
      even: { en: '{field} must be even.', es: '{field} debe ser par.' },
    });
    const result = v.safeParse(
      v.object({
        count: v.pipe(
          v.number(),
          v.check((n) => n % 2 === 0, areaRules.even),
        ),
      }),
      { count: 3 },
    );
    const found = problemsOf(result.issues ?? []);
    expect(found).toEqual([{ field: 'count', rule: areaRules.even }]);
    expect(describeProblem(found[0] as Problem, 'es')).toBe('count debe ser par.');
    // The rule still reads as its id where a valibot message is shown as text.
    expect(result.issues?.[0]?.message).toBe('even');
  });

  it('reads a problem off the issue when the schema message is plain text, not a rule', () => {
    const result = v.safeParse(v.object({ name: v.string('a name') }), { name: 5 });
    expect(problemsOf(result.issues ?? [])).toEqual([{ field: 'name', rule: rules.string }]);
  });
});

describe('InvalidInput', () => {
  const error = new InvalidInput([
    { field: 'name', rule: rules.required },
    { field: 'count', rule: rules.max_value, params: { limit: '20' } },
  ]);

  it('is a 400', () => {
    expect(error).toBeInstanceOf(Invalid);
    expect(statusOf(error)).toBe(400);
  });

  it('answers in English with every problem as a sentence', () => {
    expect(answerOf(error, 'en')?.body).toEqual({
      code: 400,
      title: 'Invalid data',
      content: 'name is required. count must be at most 20.',
      type: 'error',
      data: {
        errors: [
          { field: 'name', message: 'name is required.' },
          { field: 'count', message: 'count must be at most 20.' },
        ],
      },
    });
  });

  it('answers in Spanish with every problem as a sentence', () => {
    expect(answerOf(error, 'es')?.body).toEqual({
      code: 400,
      title: 'Datos inválidos',
      content: 'name es obligatorio. count debe ser como máximo 20.',
      type: 'error',
      data: {
        errors: [
          { field: 'name', message: 'name es obligatorio.' },
          { field: 'count', message: 'count debe ser como máximo 20.' },
        ],
      },
    });
  });

  it('fills the limit of max_length and leaves no placeholder', () => {
    const error = new InvalidInput([{ field: 'name', rule: rules.max_length, params: { limit: '50' } }]);
    const body = answerOf(error, 'es')?.body as { content: string };
    expect(body.content).toBe('name admite como máximo 50 caracteres.');
    expect(body.content).not.toMatch(/[{}]/);
  });
});

describe('clean text', () => {
  const TextSchema = v.strictObject({
    name: v.optional(textField(50)),
    note: v.optional(textField(50, { allowEmpty: true, lines: 'many' })),
    code: v.optional(plainText()),
    body: v.optional(plainText({ lines: 'many' })),
  });
  const problemOf = (input: Record<string, unknown>) => {
    try {
      validate(TextSchema, input);
    } catch (error) {
      return (error as InvalidInput).problems[0];
    }
    return undefined;
  };

  it('refuses a lone surrogate in any text, one line or many', () => {
    for (const field of ['name', 'note', 'code', 'body']) {
      for (const text of ['a\ud800b', '\udc00', 'x\ud83d']) {
        expect(problemOf({ [field]: text })).toEqual({ field, rule: rules.unicode });
      }
    }
    // A surrogate pair is one character, not two halves.
    expect(problemOf({ name: 'a😀b', code: '😀' })).toBeUndefined();
  });

  it('refuses every control character in one line, tab and line breaks included', () => {
    for (const char of [
      '\u0000',
      '\u0007',
      '\t',
      '\n',
      '\r',
      '\u001b',
      '\u007f',
      '\u0085',
      '\u009f',
      '\u2028',
    ]) {
      expect(problemOf({ code: `a${char}b` }), JSON.stringify(char)).toEqual({
        field: 'code',
        rule: rules.one_line,
      });
      expect(problemOf({ name: `a${char}b` }), JSON.stringify(char)).toEqual({
        field: 'name',
        rule: rules.one_line,
      });
    }
  });

  it('takes tab, LF and CR in many lines, and no other control character', () => {
    expect(problemOf({ note: 'first\n\tsecond\r\nthird', body: 'a\tb\nc' })).toBeUndefined();
    for (const char of ['\u0000', '\u0008', '\u000b', '\u000c', '\u001b', '\u007f', '\u0080', '\u009b']) {
      expect(problemOf({ body: `a${char}b` }), JSON.stringify(char)).toEqual({
        field: 'body',
        rule: rules.control_character,
      });
    }
  });

  it('trims a field before its checks, as it always did', () => {
    expect(validate(TextSchema, { name: '  Ada\n' })).toEqual({ name: 'Ada' });
  });

  it('says what is wrong in English and Spanish', () => {
    expect(describeProblem({ field: 'first_name', rule: rules.unicode }, 'en')).toBe(
      'first_name is not well-formed text: it has a lone UTF-16 surrogate.',
    );
    expect(describeProblem({ field: 'first_name', rule: rules.one_line }, 'es')).toMatch(
      /^first_name debe ser una sola línea/,
    );
    expect(describeProblem({ field: 'description', rule: rules.control_character }, 'en')).toBe(
      'description cannot contain control characters other than tab and line breaks.',
    );
  });

  it('textRuleOf and jsonTextRuleOf name the rule, keys one line and values many', () => {
    expect(textRuleOf('plain text', 'one')).toBeUndefined();
    expect(textRuleOf('a\nb', 'many')).toBeUndefined();
    expect(textRuleOf('a\nb', 'one')).toBe(rules.one_line);
    expect(jsonTextRuleOf({ note: 'a\nb', list: ['x', 1, null, { deep: true }] })).toBeUndefined();
    expect(jsonTextRuleOf({ note: 'a\u0000b' })).toBe(rules.control_character);
    expect(jsonTextRuleOf({ 'a\nb': 'x' })).toBe(rules.one_line);
    expect(jsonTextRuleOf({ list: [{ deep: '\ud800' }] })).toBe(rules.unicode);
  });

  it('whatever it accepts survives UTF-8 as it is and has no byte a terminal or jq trips on', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.constantFrom<'one' | 'many'>('one', 'many'),
        (text, lines) => {
          if (textRuleOf(text, lines) !== undefined) return;
          expect(Buffer.from(text, 'utf8').toString('utf8')).toBe(text);
          const allowed = lines === 'one' ? [] : [0x09, 0x0a, 0x0d];
          for (const char of text) {
            const code = char.codePointAt(0) as number;
            const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
            expect(control && !allowed.includes(code)).toBe(false);
          }
        },
      ),
    );
  });
});
