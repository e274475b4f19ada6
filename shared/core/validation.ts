/**
 * Validation at the edge: a valibot schema checks a body or query, and every problem becomes one
 * localized line of a 400 message envelope (`data.errors` lists them by field). Schemas name a
 * rule with their message (`v.regex(…, 'integer')`); problems without one are read off the issue.
 */
import * as v from 'valibot';
import { BadRequest } from './errors.ts';
import type { Lang } from './messages.ts';
import { parseScaledDecimal } from './money/amount.ts';

const rules = {
  required: { en: '{field} is required.', es: '{field} es obligatorio.' },
  body_object: {
    en: 'The body must be a JSON object (or form fields).',
    es: 'El cuerpo debe ser un objeto JSON (o campos de formulario).',
  },
  unknown_field: {
    en: '{field} is not a field of this request.',
    es: '{field} no es un campo de esta solicitud.',
  },
  max_length: {
    en: '{field} takes at most {limit} characters.',
    es: '{field} admite como máximo {limit} caracteres.',
  },
  not_blank: { en: '{field} cannot be empty.', es: '{field} no puede estar vacío.' },
  min_value: { en: '{field} must be at least {limit}.', es: '{field} debe ser al menos {limit}.' },
  max_value: { en: '{field} must be at most {limit}.', es: '{field} debe ser como máximo {limit}.' },
  integer: { en: '{field} must be an integer.', es: '{field} debe ser un número entero.' },
  boolean: { en: '{field} must be true or false.', es: '{field} debe ser true o false.' },
  string: { en: '{field} must be text.', es: '{field} debe ser texto.' },
  unicode: {
    en: '{field} is not well-formed text: it has a lone UTF-16 surrogate.',
    es: '{field} no es texto bien formado: tiene un sustituto UTF-16 aislado.',
  },
  one_line: {
    en: '{field} must be one line of text, without control characters (tabs and line breaks included).',
    es: '{field} debe ser una sola línea de texto, sin caracteres de control (ni tabuladores ni saltos de línea).',
  },
  control_character: {
    en: '{field} cannot contain control characters other than tab and line breaks.',
    es: '{field} no puede contener caracteres de control salvo tabuladores y saltos de línea.',
  },
  one_of: { en: '{field} must be one of: {options}.', es: '{field} debe ser uno de: {options}.' },
  currency: {
    en: '{field} is not a currency cobro supports.',
    es: '{field} no es una moneda que cobro admita.',
  },
  amount: {
    en: '{field} must be a positive decimal amount such as "10.50".',
    es: '{field} debe ser un monto decimal positivo, como "10.50".',
  },
  amount_too_large: {
    en: '{field} is larger than cobro accepts.',
    es: '{field} es mayor de lo que cobro acepta.',
  },
  decimal: {
    en: '{field} must be a non-negative decimal with at most 3 decimals.',
    es: '{field} debe ser un decimal no negativo con 3 decimales como máximo.',
  },
  image: {
    en: '{field} must be a data URI of a JPEG or PNG image (base64) or an http(s) URL of an image (at most 2048 characters, without spaces, quotes or control characters).',
    es: '{field} debe ser un data URI de una imagen JPEG o PNG (base64) o una URL http(s) de una imagen (como máximo 2048 caracteres, sin espacios, comillas ni caracteres de control).',
  },
  image_content: {
    en: '{field} is not a JPEG or PNG image of the type it declares.',
    es: '{field} no es una imagen JPEG o PNG del tipo que declara.',
  },
  image_malformed: {
    en: '{field} is not a whole {format} image: {detail}.',
    es: '{field} no es una imagen {format} completa: {detail}.',
  },
  image_dimensions: {
    en: '{field} is {width} × {height} pixels; images may have at most {megapixels} megapixels and {side} pixels a side.',
    es: '{field} mide {width} × {height} píxeles; las imágenes pueden tener como máximo {megapixels} megapíxeles y {side} píxeles por lado.',
  },
  image_too_large: { en: '{field} is larger than 10 MB.', es: '{field} supera los 10 MB.' },
  file_required: {
    en: '{field} must be a file (multipart/form-data).',
    es: '{field} debe ser un archivo (multipart/form-data).',
  },
  file_too_large: { en: '{field} is larger than {limit}.', es: '{field} supera {limit}.' },
  percent: {
    en: '{field} must be a percentage from 0 to 100 with at most 4 decimals.',
    es: '{field} debe ser un porcentaje de 0 a 100 con 4 decimales como máximo.',
  },
  unknown_tax: {
    en: '{field} names a tax this account does not have: {ids}.',
    es: '{field} nombra un impuesto que esta cuenta no tiene: {ids}.',
  },
  tax_ids: {
    en: '{field} must be tax ids separated by commas, such as "1,2".',
    es: '{field} debe ser ids de impuestos separados por comas, como "1,2".',
  },
  duration_period: {
    en: '{field}: only 1, 2, 3, 4, 6, 12 allowed.',
    es: '{field}: solo se permiten 1, 2, 3, 4, 6, 12.',
  },
  payday: {
    en: '{field} must be greater than 0 and at most 28.',
    es: '{field} debe ser mayor que 0 y como máximo 28.',
  },
  recurrence_kind: {
    en: '{field} must be "period" (with duration_period) or "specific_billing_day" (with payday).',
    es: '{field} debe ser "period" (con duration_period) o "specific_billing_day" (con payday).',
  },
  too_many_images: {
    en: '{field} takes at most 4 images.',
    es: '{field} admite como máximo 4 imágenes.',
  },
  image_flag: {
    en: '{field} must be -1 (keep), -remove- (remove) or image files.',
    es: '{field} debe ser -1 (conservar), -remove- (eliminar) o archivos de imagen.',
  },
  json_object: {
    en: '{field} must be a JSON object.',
    es: '{field} debe ser un objeto JSON.',
  },
  json_too_large: {
    en: '{field} is larger than 10 KB (10,240 bytes) as JSON.',
    es: '{field} supera los 10 KB (10.240 bytes) como JSON.',
  },
  key: {
    en: '{field} must be 1 to 255 printable ASCII characters.',
    es: '{field} debe tener de 1 a 255 caracteres ASCII imprimibles.',
  },
  return_url: {
    en: '{field} must be an absolute http(s) URL of at most 2048 characters, without spaces, quotes or control characters.',
    es: '{field} debe ser una URL http(s) absoluta de como máximo 2048 caracteres, sin espacios, comillas ni caracteres de control.',
  },
  return_url_https: {
    en: '{field} must be an absolute https URL in live mode.',
    es: '{field} debe ser una URL https absoluta en modo live.',
  },
  return_url_host: {
    en: '{field} must name its host as a domain name or an IP address, without user name or password.',
    es: '{field} debe indicar su host como nombre de dominio o dirección IP, sin usuario ni contraseña.',
  },
  card: { en: '{field} is not valid for a card.', es: '{field} no es válido para una tarjeta.' },
  timestamp: { en: '{field} must be an ISO 8601 time.', es: '{field} debe ser una fecha ISO 8601.' },
  email: {
    en: '{field} must be a valid e-mail address.',
    es: '{field} debe ser un correo electrónico válido.',
  },
  invalid: { en: '{field} is not valid.', es: '{field} no es válido.' },
  single_value: {
    en: '{field} takes one value: repeated or bracketed query parameters are not accepted.',
    es: '{field} admite un solo valor: no se aceptan parámetros de consulta repetidos o con corchetes.',
  },
  more_problems: {
    en: '…and {count} more problems.',
    es: '…y {count} problemas más.',
  },
} satisfies Record<string, Record<Lang, string>>;

export type Rule = keyof typeof rules;

export interface Problem {
  /** Dotted path of the field; `body` for the body as a whole. */
  field: string;
  rule: Rule;
  params?: Record<string, string>;
}

const isRule = (name: string): name is Rule => Object.hasOwn(rules, name);

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** One problem as a sentence in a language. */
export function describe(problem: Problem, lang: Lang): string {
  return fill(rules[problem.rule][lang], { field: problem.field, ...problem.params });
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
export class InvalidInput extends BadRequest {
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[]) {
    super('validation', { params: { detail: '' } });
    this.problems = problems;
  }

  override body(lang: Lang): unknown {
    const listed = this.problems.slice(0, maxListedProblems).map((problem) => ({
      ...problem,
      field: shortField(problem.field),
    }));
    const more = this.problems.length - listed.length;
    const lines = listed.map((problem) => describe(problem, lang));
    const message = super.body(lang) as Record<string, unknown>;
    const tail =
      more > 0 ? [describe({ field: '', rule: 'more_problems', params: { count: String(more) } }, lang)] : [];
    return {
      ...message,
      content: [...lines, ...tail].join(' '),
      data: {
        errors: listed.map((problem, i) => ({ field: problem.field, message: lines[i] })),
        ...(more > 0 ? { more } : {}),
      },
    };
  }
}

type Issue = v.BaseIssue<unknown>;

function problemOf(issue: Issue): Problem {
  const path = issue.path?.map((item) => String(item.key)).join('.') ?? '';
  const field = path || 'body';
  const objectIssue =
    issue.type === 'object' || issue.type === 'strict_object' || issue.type === 'loose_object';
  if (objectIssue && !path) return { field, rule: 'body_object' };
  if (objectIssue && issue.expected === 'never') return { field, rule: 'unknown_field' };
  if (issue.input === undefined) return { field, rule: 'required' };
  if (isRule(issue.message)) return { field, rule: issue.message };
  const limit = { limit: String(issue.requirement) };
  switch (issue.type) {
    case 'max_length':
    case 'max_graphemes':
      return { field, rule: 'max_length', params: limit };
    case 'min_length':
    case 'min_graphemes':
      return { field, rule: 'not_blank' };
    case 'min_value':
      return { field, rule: 'min_value', params: limit };
    case 'max_value':
      return { field, rule: 'max_value', params: limit };
    case 'integer':
      return { field, rule: 'integer' };
    case 'boolean':
      return { field, rule: 'boolean' };
    case 'string':
      return { field, rule: 'string' };
    case 'picklist':
      // valibot spells the options as `"month" | "year"`.
      return {
        field,
        rule: 'one_of',
        params: { options: (issue.expected ?? '').replace(/["()]/g, '').split(' | ').join(', ') },
      };
    default:
      return { field, rule: 'invalid' };
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

/** The schema's output for `input`, or an InvalidInput naming every problem. */
export function validate<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  // valibot's objects take arrays too; no body of this API is an array.
  if (Array.isArray(input)) throw new InvalidInput([{ field: 'body', rule: 'body_object' }]);
  const result = v.safeParse(schema, input);
  if (!result.success) throw new InvalidInput(problemsOf(result.issues));
  return result.output;
}

/** An integer in [min, max] from a JSON number or a form field's digits ("12"). */
export const integerField = (min: number, max: number) =>
  v.pipe(
    v.union(
      [v.pipe(v.number(), v.integer('integer')), v.pipe(plainText(), v.regex(/^\d+$/, 'integer'))],
      'integer',
    ),
    v.transform(Number),
    v.minValue(min),
    v.maxValue(max),
  );

/** A boolean from JSON or a form field (`true`/`false`). */
export const booleanField = () =>
  v.pipe(
    v.union([v.boolean(), v.picklist(['true', 'false'], 'boolean')], 'boolean'),
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
  if (!value.isWellFormed()) return 'unicode';
  if (lines === 'one') return controlInLine.test(value) ? 'one_line' : undefined;
  return controlInLines.test(value) ? 'control_character' : undefined;
}

const cleanText = (lines: Lines) =>
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
 * Text of 1 to `max` characters (user-perceived characters), trimmed, clean (one line unless
 * `lines` says many).
 */
export const textField = (max: number, options: { allowEmpty?: boolean; lines?: Lines } = {}) =>
  options.allowEmpty
    ? v.pipe(v.string(), v.trim(), textChecks[options.lines ?? 'one'], v.maxGraphemes(max))
    : v.pipe(v.string(), v.trim(), textChecks[options.lines ?? 'one'], v.minLength(1), v.maxGraphemes(max));

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
  value.length <= maxEmailLength &&
  textRuleOf(value, 'one') === undefined &&
  /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** A query value of digits only, as a safe integer (a count, a stock level). */
export const digitsQuery = () =>
  v.pipe(
    plainText(),
    v.regex(/^\d+$/, 'integer'),
    v.transform(Number),
    v.check((value: number) => Number.isSafeInteger(value), 'integer'),
  );

/** A non-negative decimal query value as an integer of `scale` implied decimals (price filters). */
export const scaledDecimalQuery = (scale: number) =>
  v.pipe(
    plainText(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = parseScaledDecimal(dataset.value, scale);
      if (value === undefined) {
        addIssue({ message: 'decimal' });
        return NEVER;
      }
      return value;
    }),
  );

/** How the OpenAPI document types a query parameter. */
export type QueryType = 'integer' | 'number' | 'string';

/**
 * A query parameter: the raw text (absent, or the one value the adapter passes) trimmed, then
 * `value`'s output, or undefined when not given. Empty text is not given; blank text is too unless
 * `blank` is 'invalid', when `value` sees the empty string. It carries its OpenAPI type and
 * description, from which the document lists it (queryParametersOf).
 */
export function queryParameter<TOutput>(
  type: QueryType,
  description: string,
  value: v.GenericSchema<string, TOutput>,
  options: { blank?: 'absent' | 'invalid' } = {},
) {
  const given =
    options.blank === 'invalid'
      ? (raw: string | undefined) => (raw === undefined || raw === '' ? undefined : raw.trim())
      : (raw: string | undefined) => raw?.trim() || undefined;
  return v.pipe(
    v.optional(plainText()),
    v.transform(given),
    v.optional(value),
    v.description(description),
    v.metadata({ queryType: type }),
  );
}

/**
 * The schema of a query: an object of queryParameter entries (keys are the parameter names), maybe
 * piped into the shape its handler reads. Other parameters in the query are ignored.
 */
export type QuerySchema = v.GenericSchema & { readonly entries: Readonly<Record<string, v.GenericSchema>> };

export interface QueryParameterInfo {
  name: string;
  type: QueryType;
  description: string;
}

const queryTypes: readonly string[] = ['integer', 'number', 'string'] satisfies QueryType[];

/** The parameters a query schema reads, in its order, with their types and descriptions. */
export function queryParametersOf(schema: QuerySchema): QueryParameterInfo[] {
  return Object.entries(schema.entries).map(([name, entry]) => {
    const type: unknown = (v.getMetadata(entry) as { queryType?: unknown }).queryType;
    const description = v.getDescription(entry);
    if (typeof type !== 'string' || !queryTypes.includes(type) || description === undefined) {
      throw new Error(`query parameter ${name} is not a queryParameter (no type or description)`);
    }
    return { name, type: type as QueryType, description };
  });
}
