/** GET /dashboard/webhooks/{id}/rotate-secret: the confirmation step (shared/dashboard/webhooks-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { endpointPath, showRotateSecret } from '../../shared/dashboard/webhooks-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'webhooks', endpointPath, (signed) => showRotateSecret(deps, signed)),
  { parseBody: false },
);
