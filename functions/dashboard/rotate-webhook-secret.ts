/** POST /dashboard/webhooks/{id}/rotate-secret: the confirmed rotation, through rotateSecret (shared/dashboard/webhooks-http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { endpointPath, submitRotateSecret } from '../../shared/dashboard/webhooks-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';

const deps = { ...dashboardDeps(), secrets: secretBox() };

export const handler = publicEndpoint(
  signedInForm(deps, 'webhooks', endpointPath, (signed) => submitRotateSecret(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
