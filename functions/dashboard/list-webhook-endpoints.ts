/** GET /dashboard/webhooks: the webhook endpoints and the add form (shared/dashboard/webhooks-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showEndpoints } from '../../shared/dashboard/webhooks-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { eventTypesOfEnvironment } from '../../shared/webhooks/endpoint.ts';

const deps = { ...dashboardDeps(), eventTypes: eventTypesOfEnvironment() };

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'webhooks',
    () => 'webhooks',
    (signed) => showEndpoints(deps, signed),
  ),
  { parseBody: false },
);
