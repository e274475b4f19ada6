/** GET /v1/webhook-endpoints/: Envelope B of the account's endpoints in the request mode. */
import { linkedPage, parsePageRequest } from '../../shared/core/pagination.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { endpointView } from '../../shared/webhooks/endpoint.ts';
import { listEndpoints } from '../../shared/webhooks/repository.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ query, scope }) => {
  const page = parsePageRequest(query);
  const { count, endpoints } = await listEndpoints(deps, scope, page);
  const link = (n: number) => `${baseUrl}/v1/webhook-endpoints/?page=${n}&page_size=${page.pageSize}`;
  return { status: 200, body: linkedPage(count, page, endpoints.map(endpointView), link) };
});
