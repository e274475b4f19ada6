/** Every request no route takes: 405 with Allow on a known path, 404 otherwise. */
import { envNames, requireEnv } from '../../shared/core/config.ts';
import { NotFound } from '../../shared/core/errors.ts';
import { MethodNotAllowed } from '../../shared/http/errors.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { allowedMethodsIn, decodeRouteTable, type RouteTable } from '../../shared/http/route.ts';

// The table's methods and paths, from the environment the CDK app and the local stack set.
const table: RouteTable = decodeRouteTable(requireEnv(envNames.routeTable));

export const handler = publicEndpoint(
  async ({ event }) => {
    const allowed = allowedMethodsIn(table, event.path);
    if (allowed.length > 0) throw new MethodNotAllowed(event.httpMethod, allowed);
    throw new NotFound();
  },
  // No route took the request, so no row documents its query: the answer is the path's, whatever it asks.
  { parseBody: false, documentedQueryOnly: false },
);
