/** GET /v1/webhook-endpoints/{id}/deliveries/: every attempt, newest first (Envelope B). */
import { linkedPage, parsePageRequest } from '../../shared/core/pagination.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { deliveryView } from '../../shared/webhooks/endpoint.ts';
import { getEndpoint, listAttempts } from '../../shared/webhooks/repository.ts';
import { endpointIdParam } from '../../shared/webhooks/service.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ params, query, scope }) => {
  const id = endpointIdParam(params.id);
  const page = parsePageRequest(query);
  await getEndpoint(deps, scope, id);
  const { count, attempts } = await listAttempts(deps, scope, id, page);
  const link = (n: number) =>
    `${baseUrl}/v1/webhook-endpoints/${id}/deliveries/?page=${n}&page_size=${page.pageSize}`;
  return { status: 200, body: linkedPage(count, page, attempts.map(deliveryView), link) };
});
