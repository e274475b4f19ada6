/**
 * Which query parameters a request may send: those its route documents (./route-query.ts), and `test`
 * everywhere. Any other name is 400 naming it, on every route: a parameter ignored silently can
 * change what a request does (`DELETE /v1/subscriptions/{id}?at_period_end=true` would cancel at
 * once). A function learns its rows' names from a variable per row, set from the route table
 * (shared/api/routes.ts) where it is deployed and by the local stack, so no function bundles
 * the table itself; a row without one documents `test` alone.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** The name every request may send: the mode, read on every route behind the authorizer. */
export const alwaysAccepted = 'test';

/** A path as API Gateway names its resource: without a trailing slash (`/v1/payments/` is `/v1/payments`). */
const resourceOf = (path: string) => path.replace(/(.)\/$/, '$1');

/** The variable holding the query names of the row of `method` and `path` (a route path or a resource). */
export const queryNamesVariable = (method: string, path: string) =>
  `COBRO_QUERY_${method}${resourceOf(path).replace(/[^A-Za-z0-9]/g, '_')}`;

/** What that variable holds: the names, comma-separated (a query parameter's name has no comma). */
export const encodeQueryNames = (names: Iterable<string>) => [...names].join(',');

/**
 * The names of `event`'s query that its route does not document, in the order they came. A bracketed
 * name (`charge_id[]`) is judged by the name before its bracket: a documented one sent that way is
 * refused by the one-value rule instead (./middlewares.ts), which says what is wrong with it.
 */
export function undocumentedQueryNames(
  event: Pick<APIGatewayProxyEvent, 'httpMethod' | 'resource' | 'queryStringParameters'>,
  documented: ReadonlySet<string> = documentedNamesOf(event),
): string[] {
  return Object.keys(event.queryStringParameters ?? {}).filter((name) => {
    const base = name.split('[')[0] ?? name;
    return base !== alwaysAccepted && !documented.has(base);
  });
}

/** Each variable's names, read once per process: the environment does not change under a function. */
const namesByVariable = new Map<string, ReadonlySet<string>>();

/** The names the function's variable lists for the event's method and resource. */
function documentedNamesOf(
  event: Pick<APIGatewayProxyEvent, 'httpMethod' | 'resource'>,
): ReadonlySet<string> {
  const variable = queryNamesVariable(event.httpMethod, event.resource ?? '');
  let names = namesByVariable.get(variable);
  if (!names) {
    const listed = process.env[variable];
    names = new Set(listed ? listed.split(',') : []);
    namesByVariable.set(variable, names);
  }
  return names;
}
