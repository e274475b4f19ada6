/**
 * Validation at the edge: a valibot schema checks a body or query, and every problem becomes one
 * localized line of a 400 message envelope (`data.errors` lists them by field). Schemas name a
 * rule by giving it as their message (`v.regex(…, rules.integer)`, ./rule.ts); problems without one
 * are read off the issue.
 */
import * as v from 'valibot';
import { Invalid } from './errors.ts';
import { coreMessages, type Lang } from './messages.ts';
import { type Rule, ruleOf } from './rule.ts';
import * as rules from './rules.ts';
import { webUrlPattern } from './web-url.ts';

type Issue = v.BaseIssue<unknown>;

export interface Problem {
  /** Dotted path of the field; `body` for the body as a whole. */
  field: string;
  rule: Rule;
  params?: Record<string, string>;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** One problem as a sentence in a language. */
export function describe(problem: Problem, lang: Lang): string {
  return fill(problem.rule[lang], { field: problem.field, ...problem.params });
}

/** An answer lists at most this many problems, so a small request never gets a huge answer. */
export const maxListedProblems = 20;
/** Field names (which a client chooses, as object keys) are cut to this many characters in answers. */
const maxFieldLength = 100;

const shortField = (field: string) =>
  field.length > maxFieldLength ? `${[...field].slice(0, maxFieldLength).join('')}…` : field;

/**
 * A 400 listing the problems of a body or query: the first `maxListedProblems`, and how many more
 * there are (`data.more`), however many a body manages to have.
 */
export class InvalidInput extends Invalid {
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[]) {
    super(coreMessages.validation);
    this.problems = problems;
  }

  /** The problems as the content (one sentence each) and by field in `data.errors`. */
  override details(lang: Lang): Record<string, unknown> {
    const listed = this.problems.slice(0, maxListedProblems).map((problem) => ({
      ...problem,
      field: shortField(problem.field),
    }));
    const more = this.problems.length - listed.length;
    const lines = listed.map((problem) => describe(problem, lang));
    const tail =
      more > 0
        ? [describe({ field: '', rule: rules.more_problems, params: { count: String(more) } }, lang)]
        : [];
    return {
      content: [...lines, ...tail].join(' '),
      data: {
        errors: listed.map((problem, i) => ({ field: problem.field, message: lines[i] })),
        ...(more > 0 ? { more } : {}),
      },
    };
  }
}

function problemOf(issue: Issue): Problem {
  const path = issue.path?.map((item) => String(item.key)).join('.') ?? '';
  const field = path || 'body';
  const objectIssue =
    issue.type === 'object' || issue.type === 'strict_object' || issue.type === 'loose_object';
  if (objectIssue && !path) return { field, rule: rules.body_object };
  if (objectIssue && issue.expected === 'never') return { field, rule: rules.unknown_field };
  if (issue.input === undefined) return { field, rule: rules.required };
  const rule = ruleOf(issue);
  if (rule) return { field, rule };
  const limit = { limit: String(issue.requirement) };
  switch (issue.type) {
    case 'max_length':
    case 'max_graphemes':
      return { field, rule: rules.max_length, params: limit };
    case 'min_length':
    case 'min_graphemes':
      return { field, rule: rules.not_blank };
    case 'min_value':
      return { field, rule: rules.min_value, params: limit };
    case 'max_value':
      return { field, rule: rules.max_value, params: limit };
    case 'integer':
      return { field, rule: rules.integer };
    case 'boolean':
      return { field, rule: rules.boolean };
    case 'string':
      return { field, rule: rules.string };
    case 'picklist':
      // valibot spells the options as `"month" | "year"`.
      return {
        field,
        rule: rules.one_of,
        params: { options: (issue.expected ?? '').replace(/["()]/g, '').split(' | ').join(', ') },
      };
    default:
      return { field, rule: rules.invalid };
  }
}

/** The problems of a failed parse, one per field (the first issue of each). */
export function problemsOf(issues: readonly Issue[]): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const issue of issues) {
    const problem = problemOf(issue);
    if (seen.has(problem.field)) continue;
    seen.add(problem.field);
    problems.push(problem);
  }
  return problems;
}

/**
 * The schema's output for `input`, or an InvalidInput naming every problem. No input at all (a
 * request without a body) reads as an empty object, on every route alike: a create then names the
 * fields it needs, an update changes nothing. A body that is not an object (an array, a string,
 * JSON null) is refused.
 */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  // valibot's objects take arrays too; no body of this API is an array.
  if (Array.isArray(input)) throw new InvalidInput([{ field: 'body', rule: rules.body_object }]);
  const result = v.safeParse(schema, input === undefined ? {} : input);
  if (!result.success) throw new InvalidInput(problemsOf(result.issues));
  return result.output;
}

/**
 * A regular expression of the decimal numbers from `min` to `max` (non-negative, written without
 * leading zeros), so the document can bound an integer sent as text as it bounds a JSON number:
 * the range is cut into runs that share their leading digits and then take every digit.
 */
export function integerRangePattern(min: number, max: number): string {
  const runs: string[] = [];
  let start = min;
  if (start === 0 && max >= 0) {
    runs.push('0');
    start = 1;
  }
  while (start <= max) {
    let step = 1;
    while (start % (step * 10) === 0 && start + step * 10 - 1 <= max) step *= 10;
    const digit = Math.floor(start / step) % 10;
    const count = Math.min(10 - digit, Math.floor((max - start + 1) / step));
    const prefix = Math.floor(start / (step * 10));
    const digits = count === 1 ? String(digit) : `[${digit}-${digit + count - 1}]`;
    runs.push(`${prefix || ''}${digits}${step > 1 ? `\\d{${Math.log10(step)}}` : ''}`);
    start += count * step;
  }
  return `^(?:${runs.join('|')})$`;
}

/** An integer in [min, max] from a JSON number or a form field's digits ("12"). */
export const integerField = (min: number, max: number) =>
  v.pipe(
    v.union(
      [v.pipe(v.number(), v.integer(rules.integer)), v.pipe(plainText(), v.regex(/^\d+$/, rules.integer))],
      rules.integer,
    ),
    // The document describes the input, which ends at the transform: the bounds the checks below
    // apply are stated before it too, for a JSON number and for digits alike.
    v.metadata({
      minimum: min,
      maximum: max,
      anyOf: [
        { type: 'integer', minimum: min, maximum: max },
        { type: 'string', pattern: integerRangePattern(min, max) },
      ],
    }),
    v.transform(Number),
    v.minValue(min),
    v.maxValue(max),
  );

/** A boolean from JSON or a form field (`true`/`false`). */
export const booleanField = () =>
  v.pipe(
    v.union([v.boolean(), v.picklist(['true', 'false'], rules.boolean)], rules.boolean),
    v.transform((value) => value === true || value === 'true'),
  );

/**
 * A body's `test` or `is_test`: a boolean as booleanField takes it, which must agree with the mode
 * the request acts in (a key fixes it), as records never change mode (assertModeFlags answers 400).
 * The description says so where the document shows the field.
 */
export const modeField = () =>
  v.pipe(
    v.union([v.boolean(), v.picklist(['true', 'false'], rules.boolean)], rules.boolean),
    v.description(
      'Must agree with the mode of the request (a key fixes it; absent = that mode): records never change mode, so a contradicting value is 400.',
    ),
    v.transform((value) => value === true || value === 'true'),
  );

/**
 * How many lines a text may have. Every string an input takes is well-formed Unicode (a lone
 * surrogate makes the JSON cobro answers unreadable to strict parsers such as jq) without control
 * characters (NUL, ESC, DEL, the C1 range: they corrupt logs, terminals, CSV exports and e-mail
 * headers). `one` line, the rule for names, e-mails, ids, codes and URLs, also has no tab, line
 * break or U+2028/U+2029. `many` lines, for free text a person writes at length (descriptions, a
 * webhook endpoint's note, a legacy charge's description, customer metadata values), may have tab,
 * LF and CR.
 */
export type Lines = 'one' | 'many';

const controlInLine = /[\p{Cc}\u2028\u2029]/u;
const controlInLines = /(?![\t\n\r])\p{Cc}/u;

/** The rule `value` breaks as text of `lines`, or undefined when it is clean text. */
export function textRuleOf(value: string, lines: Lines): Rule | undefined {
  if (!value.isWellFormed()) return rules.unicode;
  if (lines === 'one') return controlInLine.test(value) ? rules.one_line : undefined;
  return controlInLines.test(value) ? rules.control_character : undefined;
}

// No side effects (the annotation tells the bundler): a bundle that never checks text leaves out
// textChecks below, and with it the base's rules.
const cleanText = /* @__NO_SIDE_EFFECTS__ */ (lines: Lines) =>
  v.rawCheck<string>(({ dataset, addIssue }) => {
    const rule = dataset.typed ? textRuleOf(dataset.value, lines) : undefined;
    if (rule) addIssue({ message: rule });
  });

/**
 * The checks of clean text, one action per kind of text. Every string schema of a request goes
 * through one of them (plainText, textField, queryParameter build on them); a test walks the route
 * table's bodies and queries for strings that do not.
 */
export const textChecks = { one: cleanText('one'), many: cleanText('many') } as const;

/**
 * The base of every string an input takes: a string (`message` names the rule when it is not one)
 * that is clean text of `lines` (one line unless said).
 */
export const plainText = (options: { lines?: Lines; message?: Rule } = {}) =>
  v.pipe(v.string(options.message), textChecks[options.lines ?? 'one']);

/**
 * How the OpenAPI document marks text that is trimmed and then may not be empty (a metadata action
 * for its pipe): it has a character other than a space.
 */
export const nonBlank = () => v.metadata<string, { pattern: string }>({ pattern: '\\S' });

/**
 * Text of 1 to `max` characters (user-perceived characters), trimmed, clean (one line unless
 * `lines` says many).
 */
export const textField = (max: number, options: { allowEmpty?: boolean; lines?: Lines } = {}) =>
  options.allowEmpty
    ? v.pipe(v.string(), v.trim(), textChecks[options.lines ?? 'one'], v.maxGraphemes(max))
    : v.pipe(
        v.string(),
        nonBlank(),
        v.trim(),
        textChecks[options.lines ?? 'one'],
        v.minLength(1),
        v.maxGraphemes(max),
      );

/**
 * The rule the first string of a JSON value (an object's keys included) breaks: keys are one
 * line, string values may have many (customer metadata); undefined when all are clean.
 */
export function jsonTextRuleOf(value: unknown): Rule | undefined {
  if (typeof value === 'string') return textRuleOf(value, 'many');
  if (Array.isArray(value)) {
    for (const item of value) {
      const rule = jsonTextRuleOf(item);
      if (rule) return rule;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const rule = textRuleOf(key, 'one') ?? jsonTextRuleOf(item);
      if (rule) return rule;
    }
  }
  return undefined;
}

/** Longest e-mail address (RFC 5321's path limit); a longer one is no address. */
export const maxEmailLength = 254;

/**
 * An e-mail address as cobro takes one: something@domain.tld, one line of clean text without
 * spaces, 254 characters at most.
 */
export const isEmail = (value: string) =>
  // Stored lower-cased, which can lengthen it ("İ" is two code units lower-cased): both must fit.
  value.length <= maxEmailLength &&
  value.toLowerCase().length <= maxEmailLength &&
  textRuleOf(value, 'one') === undefined &&
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** How the OpenAPI document marks a field checked with parseWebUrl (a metadata action for its pipe). */
export const webUrlFormat = () => v.metadata<string, { pattern: string }>({ pattern: webUrlPattern });

/** How the OpenAPI document marks a field checked with isEmail (a metadata action for its pipe). */
export const emailFormat = () => v.metadata<string, { format: 'email' }>({ format: 'email' });
