/** GET /v1/webhook-endpoints/{id}/: one endpoint (never its secret). */
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { endpointView } from '../../shared/webhooks/endpoint.ts';
import { getEndpoint } from '../../shared/webhooks/repository.ts';
import { endpointIdParam } from '../../shared/webhooks/service.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => ({
  status: 200,
  body: endpointView(await getEndpoint(deps, scope, endpointIdParam(params.id))),
}));
