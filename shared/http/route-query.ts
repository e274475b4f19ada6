/**
 * The query parameters a route documents, read from its row: the mode's `test` on every route behind
 * the authorizer (the endpoint adapter reads it, ./endpoint.ts), then those of its query schema
 * (`query`, shared/core/query.ts), in that order. The OpenAPI document lists exactly these, and a
 * rule about the query a request may send is held to the same list.
 */
import { type QueryParameterInfo, queryParametersOf } from '../core/query.ts';
import { alwaysAccepted, encodeQueryNames, queryNamesVariable } from './query-names.ts';
import type { Route } from './route.ts';

/** `test`: the mode a request acts in, on every route behind the authorizer. */
export const modeQueryParameter: QueryParameterInfo = {
  name: 'test',
  type: 'boolean',
  description:
    'Mode. A key fixes it (`sk_test_` test, `sk_live_` live) and a contradicting value is 403; with a bearer token it chooses (absent = live).',
  keywords: {},
};

/** The query parameters `route` documents, in the document's order. */
export function documentedQueryParameters(route: Pick<Route, 'auth' | 'query'>): QueryParameterInfo[] {
  return [
    ...(route.auth ? [modeQueryParameter] : []),
    ...(route.query ? queryParametersOf(route.query) : []),
  ];
}

/** The names of the query parameters `route` documents: any other name in a request is undocumented. */
export const documentedQueryNames = (route: Pick<Route, 'auth' | 'query'>): ReadonlySet<string> =>
  new Set(documentedQueryParameters(route).map((parameter) => parameter.name));

/**
 * The variable that tells a row's function the names it documents (./query-names.ts), when it
 * documents more than the mode: a row of `test` alone needs none.
 */
export function queryNamesEnvironment(route: Pick<Route, 'auth' | 'query' | 'method' | 'path'>) {
  const names = [...documentedQueryNames(route)].filter((name) => name !== alwaysAccepted);
  return names.length === 0
    ? {}
    : { [queryNamesVariable(route.method, route.path)]: encodeQueryNames(names) };
}
