/** GET /v1/payment-links/{id}/: the link with its `payment_logs`; 404 when absent. */
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { linkIdParam, linkOf } from '../../shared/payment-links/service.ts';

const deps = { ...makeDeps(), baseUrl: publicBaseUrl() };

export const handler = endpoint(async ({ params, scope }) => ({
  status: 200,
  body: await linkOf(deps, scope, linkIdParam(params.id)),
}));
