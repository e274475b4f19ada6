/**
 * The dashboard as one function routed inside (docs/design.md#merchant-dashboard). API Gateway
 * sends it every request under the dashboard's prefix (`/dashboard` and `/dashboard/{proxy+}`,
 * whatever the method); the router finds the row of the request's method and path among the
 * dashboard's rows, reads a form's body when the row takes one (up to the dashboard's form
 * limit), and runs the row's page. A page's module is loaded the first time one of its pages is
 * asked for: a cold start evaluates the router and the shell, not every page.
 *
 * What API Gateway answered for the dashboard's paths before it was one function, the router
 * answers now: a path no row has is the fallback's 404, and a method no row of a known path takes
 * its 405 with Allow, both in the error envelope.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { NotFound } from '../core/errors.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput } from '../core/validation.ts';
import { parseBody, parseMultipart } from '../http/body.ts';
import { MethodNotAllowed } from '../http/errors.ts';
import { build, toRequest } from '../http/handler.ts';
import { headerOf } from '../http/headers.ts';
import type { ParsedEvent } from '../http/middlewares.ts';
import { undocumentedQueryNames } from '../http/query-names.ts';
import { allowedMethodsIn, matchPath, routeTableOf } from '../http/route.ts';
import { documentedQueryNames } from '../http/route-query.ts';
import { type DashboardRoute, dashboardFormBytes } from './common-routes.ts';
import type { DashboardDeps, DashboardPage } from './http.ts';

/** `<module>#<name>`: the module part names a file of this folder, `<module>-http.ts`. */
const pageReference = /^([a-z]+(?:-[a-z]+)*)#([A-Za-z]+)$/;

/** The page a row names, loaded from its module (once per module and function instance). */
export function pageLoader<D>() {
  const modules = new Map<string, Promise<Record<string, unknown>>>();
  return async (page: string): Promise<DashboardPage<D>> => {
    const [, module, name] = pageReference.exec(page) ?? [];
    if (!module || !name) throw new Error(`${page}: a page is named {module}#{name}`);
    let loaded = modules.get(module);
    if (!loaded) {
      // A template with one value: bundlers take in every `*-http.ts` of this folder, so each page
      // module ships with the function and is evaluated only when first asked for.
      loaded = import(`./${module}-http.ts`) as Promise<Record<string, unknown>>;
      modules.set(module, loaded);
    }
    const found = (await loaded)[name];
    if (typeof found !== 'function')
      throw new Error(`${page}: shared/dashboard/${module}-http.ts exports no such page`);
    return found as DashboardPage<D>;
  };
}

/** The path a request to the routed function names: the prefix and what `{proxy+}` took, if anything. */
export const routedPath = (prefix: string, event: Pick<APIGatewayProxyEvent, 'pathParameters'>) =>
  `${prefix}/${event.pathParameters?.proxy ?? ''}`;

/**
 * The dashboard's handler: `rows` routed under `prefix`, each answered by its page with `deps`
 * (made once, at the module's top, by the function).
 */
export function dashboardRouter<D extends DashboardDeps>(
  deps: D,
  rows: readonly DashboardRoute[],
  prefix: string,
) {
  const table = routeTableOf(rows);
  const pageOf = pageLoader<D>();
  return build(
    async (event) => {
      const path = routedPath(prefix, event);
      const row = rows.find((route) => route.method === event.httpMethod && matchPath(route.path, path));
      if (!row) {
        const allowed = allowedMethodsIn(table, path);
        if (allowed.length > 0) throw new MethodNotAllowed(event.httpMethod, allowed);
        throw new NotFound();
      }
      // A query parameter the row does not document is refused, as every route refuses it.
      const undocumented = undocumentedQueryNames(event, documentedQueryNames(row));
      if (undocumented.length > 0)
        throw new InvalidInput(undocumented.map((field) => ({ field, rule: rules.undocumented_query })));
      // A form's body, as the middleware reads one (multipart included), within the forms' limit.
      if (row.bodyTypes) {
        const parsed = (event as ParsedEvent).parsed;
        const contentType = headerOf(event.headers, 'content-type') ?? '';
        const body = /^multipart\/form-data/i.test(contentType)
          ? await parseMultipart(event.body, event.isBase64Encoded, contentType, dashboardFormBytes)
          : parseBody(event.body, event.isBase64Encoded, contentType, dashboardFormBytes);
        if (parsed) parsed.body = body;
      }
      const request = { ...toRequest(event), params: matchPath(row.path, path) ?? {} };
      return (await pageOf(row.page))(deps, request, row);
    },
    // The body is read once the row is known: a GET's is never read, a form's within its limit.
    // The query is checked against the row too (the gateway's resource is the prefix's proxy).
    { parseBody: false, documentedQueryOnly: false },
  );
}
