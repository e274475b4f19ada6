/** POST /dashboard/webhooks/{id}/delete: the confirmed deletion, through deleteEndpoint (shared/dashboard/webhooks-http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { endpointPath, submitDeleteEndpoint } from '../../shared/dashboard/webhooks-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(deps, 'webhooks', endpointPath, (signed) => submitDeleteEndpoint(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
