/** POST /dashboard/webhooks: the add-endpoint form, through registerEndpoint (shared/dashboard/webhooks-http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitEndpoint } from '../../shared/dashboard/webhooks-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { eventTypesOfEnvironment } from '../../shared/webhooks/endpoint.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';

const deps = { ...dashboardDeps(), eventTypes: eventTypesOfEnvironment(), secrets: secretBox() };

export const handler = publicEndpoint(
  signedInForm(
    deps,
    'webhooks',
    () => 'webhooks',
    (signed) => submitEndpoint(deps, signed),
  ),
  { maxBodyBytes: dashboardFormBytes },
);
