/** GET /dashboard/webhooks/{id}: one endpoint and its deliveries (shared/dashboard/webhooks-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { endpointPath, showEndpoint } from '../../shared/dashboard/webhooks-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'webhooks', endpointPath, (signed) => showEndpoint(deps, signed)),
  { parseBody: false },
);
