/**
 * Query parameters: how a route's query is declared, and what it documents. A route's query schema
 * (its row's `query`) is an object of queryParameter entries; each carries its OpenAPI type, its
 * description and the JSON Schema keywords of what its value's checks accept, so one declaration is
 * what the handler parses with (`validate`, ./validation.ts) and what the OpenAPI document lists
 * (queryParametersOf). The route-level reading, the mode's `test` included, is
 * shared/http/route-query.ts.
 */
import * as v from 'valibot';
import { parseScaledDecimal } from './money/amount.ts';
import * as rules from './rules.ts';
import { plainText } from './validation.ts';

/** How the OpenAPI document types a query parameter. */
export type QueryType = 'boolean' | 'integer' | 'number' | 'string';

/** JSON Schema keywords (`minimum`, `enum`, …) the OpenAPI document gives a value besides its type. */
export type SchemaKeywords = Readonly<Record<string, unknown>>;

/** A query parameter as the OpenAPI document lists it. */
export interface QueryParameterInfo {
  name: string;
  type: QueryType;
  description: string;
  /** What its value's checks accept besides the type (queryKeywordsOf); empty when only the type. */
  keywords: SchemaKeywords;
}

/**
 * The schema of a query: an object of queryParameter entries (keys are the parameter names), maybe
 * piped into the shape its handler reads. Other parameters in the query are ignored.
 */
export type QuerySchema = v.GenericSchema & { readonly entries: Readonly<Record<string, v.GenericSchema>> };

/** A query value of digits only, as a safe integer (a count, a stock level). */
export const digitsQuery = () =>
  v.pipe(
    plainText(),
    v.regex(/^\d+$/, rules.integer),
    v.transform(Number),
    v.check((value: number) => Number.isSafeInteger(value), rules.integer),
    v.metadata({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  );

/**
 * A non-negative decimal query value as an integer of `scale` implied decimals (price filters). The
 * document shows it as text of that pattern (a query value is text, and a decimal's digits are what
 * count): at most `scale` decimals, and few enough digits that the integer stays safe.
 */
export const scaledDecimalQuery = (scale: number) =>
  v.pipe(
    plainText(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = parseScaledDecimal(dataset.value, scale);
      if (value === undefined) {
        addIssue({ message: rules.decimal });
        return NEVER;
      }
      return value;
    }),
    v.metadata({ pattern: `^\\d{1,${15 - scale}}(\\.\\d{1,${scale}})?$` }),
  );

type PipeItem = { kind: string; type: string; requirement?: unknown; options?: unknown; metadata?: unknown };

const flatPipe = (schema: v.GenericSchema): PipeItem[] =>
  'pipe' in schema
    ? (schema.pipe as PipeItem[]).flatMap((item) =>
        item.kind === 'schema' && 'pipe' in item ? flatPipe(item as unknown as v.GenericSchema) : [item],
      )
    : [schema as unknown as PipeItem];

/**
 * What a query value's own checks accept, as JSON Schema keywords, read off the checks themselves so
 * the document cannot promise more than the handler takes: a picklist is an `enum`, a minimum or
 * maximum value (of the number the text becomes) is `minimum` or `maximum`, a longest text is
 * `maxLength`, and a `v.metadata` in the pipe adds its keys as they are.
 */
export function queryKeywordsOf(value: v.GenericSchema, type: QueryType): SchemaKeywords {
  const keywords: Record<string, unknown> = {};
  for (const item of flatPipe(value)) {
    if (item.kind === 'schema' && item.type === 'picklist') keywords.enum = item.options;
    else if (item.type === 'min_value' && typeof item.requirement === 'number' && type !== 'string') {
      keywords.minimum = item.requirement;
    } else if (item.type === 'max_value' && typeof item.requirement === 'number' && type !== 'string') {
      keywords.maximum = item.requirement;
    } else if (item.type === 'max_length' && type === 'string') keywords.maxLength = item.requirement;
    else if (item.kind === 'metadata' && item.type === 'metadata') Object.assign(keywords, item.metadata);
  }
  return keywords;
}

/**
 * A query parameter: the raw text (absent, or the one value the adapter passes) trimmed, then
 * `value`'s output, or undefined when not given. Empty text is not given; blank text is too unless
 * `blank` is 'invalid', when `value` sees the empty string. It carries its OpenAPI type,
 * description and the keywords of what `value` accepts (queryKeywordsOf), from which the document
 * lists it (queryParametersOf).
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
    v.metadata({ queryType: type, queryKeywords: queryKeywordsOf(value, type) }),
  );
}

const queryTypes: readonly string[] = ['boolean', 'integer', 'number', 'string'] satisfies QueryType[];

/**
 * The parameters a query schema reads, in its order, with their types and descriptions; an entry
 * that is no queryParameter (no type or description) is an error, never left out.
 */
export function queryParametersOf(schema: QuerySchema): QueryParameterInfo[] {
  return Object.entries(schema.entries).map(([name, entry]) => {
    const { queryType: type, queryKeywords } = v.getMetadata(entry) as {
      queryType?: unknown;
      queryKeywords?: SchemaKeywords;
    };
    const description = v.getDescription(entry);
    if (typeof type !== 'string' || !queryTypes.includes(type) || description === undefined) {
      throw new Error(`query parameter ${name} is not a queryParameter (no type or description)`);
    }
    return { name, type: type as QueryType, description, keywords: queryKeywords ?? {} };
  });
}
