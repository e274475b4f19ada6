/** POST /dashboard/webhooks/{id}/redeliver: the Redeliver form, through redeliverEvent (shared/dashboard/webhooks-http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { endpointPath, submitRedeliver } from '../../shared/dashboard/webhooks-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(deps, 'webhooks', endpointPath, (signed) => submitRedeliver(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
