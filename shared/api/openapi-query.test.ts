/**
 * A list's query parameters in the OpenAPI document come from the schema its handler parses the
 * query with, so the two cannot drift: every key of the schema is a parameter, with its type and
 * the schema's description, and nothing else is.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { type QuerySchema, queryParameter, queryParametersOf } from '../core/query.ts';
import { documentedQueryParameters } from '../http/route-query.ts';
import { PaymentListQuerySchema } from '../payments/list-query.ts';
import { PlanListQuerySchema } from '../plans/list-query.ts';
import { RefundListQuerySchema } from '../refunds/list-query.ts';
import { openApiDocument } from './openapi.ts';
import { routes } from './routes.ts';

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  schema: { type: string; enum?: unknown[]; [keyword: string]: unknown };
  description: string;
}

const doc = openApiDocument('https://api.example.test') as {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
};

/** The query parameters of an operation, besides the mode (`test`), which every authenticated route has. */
const queryParametersIn = (path: string, method: string) =>
  (doc.paths[path]?.[method]?.parameters ?? []).filter(
    (parameter) => parameter.in === 'query' && parameter.name !== 'test',
  );

const lists: [string, string, QuerySchema][] = [
  ['/v1/plans/', 'get', PlanListQuerySchema],
  ['/v1/payments/', 'get', PaymentListQuerySchema],
  ['/v1/payments/internal', 'get', PaymentListQuerySchema],
  ['/v1/refunds/', 'get', RefundListQuerySchema],
];

describe('OpenAPI query parameters', () => {
  it.each(lists)('of %s come from the schema its handler parses with', (path, method, schema) => {
    const route = routes.find((row) => row.path === path && row.method.toLowerCase() === method);
    expect(route?.query).toBe(schema);
    const keys = Object.keys(schema.entries);
    expect(keys.length).toBeGreaterThan(0);
    const parameters = queryParametersIn(path, method);
    expect(parameters.map((parameter) => parameter.name)).toEqual(keys);
    for (const [name, entry] of Object.entries(schema.entries)) {
      const parameter = parameters.find((item) => item.name === name);
      expect(parameter?.description).toBe(v.getDescription(entry));
      expect(parameter?.description).toMatch(/\S/);
      const { queryType, queryKeywords } = v.getMetadata(entry) as {
        queryType: string;
        queryKeywords: Record<string, unknown>;
      };
      expect(parameter?.schema).toEqual({ type: queryType, ...queryKeywords });
      expect(parameter?.required).toBe(false);
    }
  });

  it('of every route are exactly those its row documents (documentedQueryParameters), `test` included', () => {
    for (const route of routes) {
      const listed = (doc.paths[route.path]?.[route.method.toLowerCase()]?.parameters ?? []).filter(
        (parameter) => parameter.in === 'query',
      );
      expect(listed, `${route.method} ${route.path}`).toEqual(
        documentedQueryParameters(route).map((parameter) => ({
          name: parameter.name,
          in: 'query',
          required: false,
          schema: { type: parameter.type, ...parameter.keywords },
          description: parameter.description,
        })),
      );
    }
  });

  it('list exactly the parameters GET /v1/plans/ reads, with their types', () => {
    const types = Object.fromEntries(
      queryParametersIn('/v1/plans/', 'get').map((parameter) => [parameter.name, parameter.schema.type]),
    );
    expect(types).toEqual({
      name: 'string',
      price_min: 'string',
      price_max: 'string',
      interval: 'string',
      interval_count: 'integer',
      subscribers_min: 'integer',
      subscribers_max: 'integer',
      trial_days: 'integer',
      status: 'string',
      page: 'integer',
      page_size: 'integer',
    });
    const pageSize = queryParametersIn('/v1/plans/', 'get').find(
      (parameter) => parameter.name === 'page_size',
    );
    expect(pageSize?.description).toBe('Default 10; above 100 is taken as 100.');
  });

  it('list exactly the parameters GET /v1/payments/ reads, with their types', () => {
    expect(queryParametersIn('/v1/payments/', 'get')).toEqual([
      {
        name: 'limit',
        in: 'query',
        required: false,
        // Below 1 is refused; above 1000 is taken as 1000, so the document sets no maximum.
        schema: { type: 'integer', minimum: 1 },
        description: 'At most this many charges (default 100, above 1000 taken as 1000).',
      },
      {
        name: 'created_before',
        in: 'query',
        required: false,
        schema: { type: 'string', format: 'date-time' },
        description: 'Only charges created before this ISO 8601 time.',
      },
      {
        name: 'status',
        in: 'query',
        required: false,
        schema: { type: 'string' },
        description: '`succeeded` (every charge); another value lists nothing.',
      },
    ]);
  });

  it('are only emitted from query parameters: an entry without type or description is refused', () => {
    expect(() => queryParametersOf(v.object({ plain: v.optional(v.string()) }))).toThrow(/plain/);
    expect(() =>
      queryParametersOf(
        v.object({ undescribed: v.pipe(v.optional(v.string()), v.metadata({ queryType: 'string' })) }),
      ),
    ).toThrow(/undescribed/);
    expect(queryParametersOf(v.object({ q: queryParameter('string', 'Some text.', v.string()) }))).toEqual([
      { name: 'q', type: 'string', description: 'Some text.', keywords: {} },
    ]);
  });

  it('bound each parameter as its check does: page, page_size and limit from 1, picklists as enums', () => {
    const schemaOf = (path: string, name: string) =>
      queryParametersIn(path, 'get').find((parameter) => parameter.name === name)?.schema;
    for (const path of [
      '/v1/plans/',
      '/v1/products/',
      '/v1/customers/',
      '/v1/subscriptions',
      '/v1/payment-links/',
      '/v1/webhook-endpoints/',
      '/v1/events/',
    ]) {
      // A page past the last is 404 and a size above the largest is clamped: neither has a maximum.
      expect(schemaOf(path, 'page'), path).toEqual({ type: 'integer', minimum: 1 });
      expect(schemaOf(path, 'page_size'), path).toEqual({ type: 'integer', minimum: 1 });
    }
    expect(schemaOf('/v1/payments/', 'limit')).toEqual({ type: 'integer', minimum: 1 });
    expect(schemaOf('/v1/plans/', 'interval')).toEqual({ type: 'string', enum: ['month', 'year'] });
    expect(schemaOf('/v1/plans/', 'interval_count')).toEqual({
      type: 'integer',
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
    });
    expect(schemaOf('/v1/products/', 'type')).toEqual({ type: 'string', enum: ['physical', 'digital'] });
    expect(schemaOf('/v1/subscriptions', 'status')?.enum).toContain('past_due');
    expect(schemaOf('/v1/events/', 'type')).toEqual({ type: 'string', maxLength: 100 });
    // A price filter is decimal text, at most 3 decimals, as scaledDecimalQuery reads it.
    expect(schemaOf('/v1/plans/', 'price_min')).toEqual({
      type: 'string',
      pattern: '^\\d{1,12}(\\.\\d{1,3})?$',
    });
  });

  it('read the bounds off the checks themselves', () => {
    const [parameter] = queryParametersOf(
      v.object({
        n: queryParameter(
          'integer',
          'A number.',
          v.pipe(v.string(), v.transform(Number), v.minValue(2), v.maxValue(9)),
        ),
      }),
    );
    expect(parameter?.keywords).toEqual({ minimum: 2, maximum: 9 });
    const parsed = v.safeParse(
      v.object({
        n: queryParameter('integer', 'A number.', v.pipe(v.string(), v.transform(Number), v.minValue(2))),
      }),
      { n: '1' },
    );
    expect(parsed.success).toBe(false);
  });
});
