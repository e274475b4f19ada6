/** GET /v1/customers/: Envelope B, or the search view (`search` without `page` or `page_size`). */
import { customerList } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = { ...makeDeps(), baseUrl: publicBaseUrl() };

export const handler = endpoint(async ({ query, scope }) => ({
  status: 200,
  body: await customerList(deps, scope, query),
}));
