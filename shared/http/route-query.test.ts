/**
 * A route's documented query parameters are read from its row alone: the mode's `test` behind the
 * authorizer, then its query schema's, which is what the OpenAPI document lists for every route.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { queryParameter } from '../core/query.ts';
import { documentedQueryNames, documentedQueryParameters, modeQueryParameter } from './route-query.ts';

const query = v.object({
  status: queryParameter('string', 'Only these.', v.picklist(['open', 'paid'])),
  page: queryParameter('integer', 'From 1.', v.pipe(v.string(), v.transform(Number), v.minValue(1))),
});

describe("a route's documented query parameters", () => {
  it('are `test` first behind the authorizer, then its query schema, in order, with types and keywords', () => {
    expect(documentedQueryParameters({ auth: true, query })).toEqual([
      modeQueryParameter,
      { name: 'status', type: 'string', description: 'Only these.', keywords: { enum: ['open', 'paid'] } },
      { name: 'page', type: 'integer', description: 'From 1.', keywords: { minimum: 1 } },
    ]);
    expect(modeQueryParameter).toMatchObject({ name: 'test', type: 'boolean', keywords: {} });
  });

  it('leave `test` out of a public route, and are none for a route that reads no query', () => {
    expect(documentedQueryParameters({ auth: false, query }).map((parameter) => parameter.name)).toEqual([
      'status',
      'page',
    ]);
    expect(documentedQueryParameters({ auth: false })).toEqual([]);
    expect([...documentedQueryNames({ auth: true })]).toEqual(['test']);
    expect(documentedQueryNames({ auth: true, query }).has('limit')).toBe(false);
  });

  it('refuse a query entry that is no queryParameter, never leaving it out', () => {
    const plain = v.object({ plain: v.optional(v.string()) });
    expect(() => documentedQueryParameters({ auth: true, query: plain })).toThrow(/plain/);
  });
});
