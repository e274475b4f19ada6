/** POST /v1/customers/{id}/portal/: 201 `{url, expires_at}`, a link to the customer's portal; 404 no such customer. */
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { createPortal, stagePortalKeys } from '../../shared/portal/service.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();
const keys = stagePortalKeys();

export const handler = endpoint(async ({ params, scope }) => ({
  status: 201,
  body: await createPortal(deps, keys, baseUrl, scope, params.id ?? ''),
}));
