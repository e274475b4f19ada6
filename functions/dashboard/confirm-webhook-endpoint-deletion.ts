/** GET /dashboard/webhooks/{id}/delete: the confirmation step (shared/dashboard/webhooks-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { endpointPath, showDeleteEndpoint } from '../../shared/dashboard/webhooks-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'webhooks', endpointPath, (signed) => showDeleteEndpoint(deps, signed)),
  { parseBody: false },
);
