import { envNames } from '../core/config.ts';
import { HealthSchema, OpenApiDocumentSchema } from '../core/envelopes.ts';
import { dashboardFunction } from '../dashboard/area.ts';
import { type Access, encodeRouteTable, matchPath, type Route, routeTableOf } from '../http/route.ts';
import { queryNamesEnvironment } from '../http/route-query.ts';
import { areas, rowsOfArea } from './areas.ts';

/** Routes of no area: the probe, this API's own document, stored images. */
const systemRoutes: readonly Route[] = [
  {
    method: 'GET',
    path: '/health',
    handler: 'functions/system/health.ts',
    operationId: 'health',
    auth: false,
    access: { table: { actions: ['GetItem'] } },
    summary: 'Liveness, without credentials',
    description:
      'Reads one item of the table with a one-second budget: 200 when the table answers, 503 naming what went wrong when it does not, so a probe sees a dead database.',
    answers: { 200: { description: 'Alive: the table answers', json: HealthSchema } },
    errors: {
      503: { description: 'The table does not answer, or answers with an error', body: 'HealthUnavailable' },
    },
  },
  {
    method: 'GET',
    path: '/openapi.json',
    handler: 'functions/system/get-openapi.ts',
    operationId: 'getOpenapi',
    auth: false,
    access: {},
    summary: 'This document',
    description:
      "The OpenAPI 3.1 description of every route and webhook, built from the same route rows and schemas the handlers use; its server is the stage's public base URL, whatever Host the request named.",
    answers: { 200: { description: 'The OpenAPI 3.1 document', json: OpenApiDocumentSchema } },
  },
  {
    method: 'GET',
    path: '/media/{name}',
    handler: 'functions/media/get-image.ts',
    operationId: 'getImage',
    auth: false,
    access: { media: 'read' },
    summary: 'A stored image (plan, product and customer images), without credentials',
    description:
      'Serves an image by the name cobro gave it (its SHA-256 and extension), so a browser or an e-mail can load it. A name is never reused for other content, so the answer may be cached for a year.',
    answers: { 200: { description: 'The image', media: ['image/jpeg', 'image/png'] } },
  },
];

/** The group of the routes of no area, as the OpenAPI document tags them. */
export const systemTag = {
  name: 'system',
  description: 'The liveness probe, this document and stored images, all without credentials.',
} as const;

/** Routes under the tag the OpenAPI document gives them: the area's name, or `system`. */
export interface RouteGroup {
  tag: string;
  routes: readonly Route[];
}

/** A function that serves every path under `prefix` and routes inside. */
export interface RoutedFunction {
  readonly handler: string;
  readonly prefix: string;
}

/**
 * Functions that serve every path under a prefix and route inside (the merchant dashboard: one
 * function, many pages): API Gateway sends them `<prefix>` and `<prefix>/{proxy+}`, whatever the
 * method, and they answer 404 and 405 themselves. Their rows stay in the table above, each with
 * its access and its entry in the OpenAPI document; the function's role is the union of its rows'
 * access (infra/permissions.ts mergeAccess). The API keeps one function per endpoint.
 */
export const routedFunctions: readonly RoutedFunction[] = [dashboardFunction];

/**
 * A row with the variable that tells its function which query parameters it documents
 * (shared/http/query-names.ts). A function routed inside checks its rows' itself: it gets none.
 */
function withQueryNames(route: Route): Route {
  if (routedFunctions.some(({ handler }) => handler === route.handler)) return route;
  const names = queryNamesEnvironment(route);
  return Object.keys(names).length === 0
    ? route
    : { ...route, environment: { ...route.environment, ...names } };
}

/** The routes by group: those of no area, then each area's (shared/api/areas.ts), in the list's order. */
export const routeGroups: readonly RouteGroup[] = [
  { tag: systemTag.name, routes: systemRoutes },
  ...areas.map((area) => ({ tag: area.name, routes: rowsOfArea(area, (one) => one.routes) })),
]
  .filter((group) => group.routes.length > 0)
  .map((group) => ({ ...group, routes: group.routes.map(withQueryNames) }));

/** Every route: those of no area, then each area's (shared/api/areas.ts), in the list's order. */
export const routes: readonly Route[] = routeGroups.flatMap((group) => group.routes);

/**
 * The variables route rows give their functions, all together: the local stack runs every handler
 * in one process, so it sets them all. Two rows may not give one variable different values.
 */
export const routesEnvironment: Readonly<Record<string, string>> = routes.reduce<Record<string, string>>(
  (all, route) => {
    for (const [name, value] of Object.entries(route.environment ?? {})) {
      if (name in all && all[name] !== value) throw new Error(`routes give ${name} different values`);
      all[name] = value;
    }
    return all;
  },
  {},
);

/** The routed function that serves a path (its prefix, or a path under it), if any. */
export const routedFunctionOf = (path: string) =>
  routedFunctions.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));

/**
 * Answers every request no route takes: 405 on a known path, 404 otherwise. Paths under a routed
 * function's prefix never reach it (the routed function answers their 404 and 405).
 */
export const fallback = {
  handler: 'functions/system/not-routed.ts',
  access: {},
  /** It knows the table's methods and paths from its environment, so it bundles no area. */
  environment: {
    [envNames.routeTable]: encodeRouteTable(
      routeTableOf(routes.filter((route) => !routedFunctionOf(route.path))),
    ),
  },
} as const;

/** The Lambda authorizer in front of every `auth: true` route. */
export const authorizer = {
  handler: 'functions/authorizer/authorize.ts',
  identityHeader: 'Authorization',
  /** API Gateway caches a result per Authorization value this long; a rotated key dies within it. */
  cacheTtlSeconds: 60,
  access: { table: { actions: ['GetItem', 'Query'] }, tokenSecret: true } satisfies Access,
} as const;

/**
 * Content types API Gateway treats as binary. `*\/*`: API Gateway decides by the first type of a
 * request's Accept header, and a browser loading an image asks for image/avif or text/html first;
 * only this makes stored images arrive as images. The price is that every request body reaches
 * handlers base64-encoded, which they decode (shared/http/handler.ts bodyText).
 */
export const binaryMediaTypes = ['*/*'] as const;

/** The route for a method and path, with its path parameters. */
export function findRoute(
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = matchPath(route.path, path);
    if (params) return { route, params };
  }
  return undefined;
}
