/** POST /dashboard/api-keys/rotate: the confirmed rotation, through rotateKeyAs (shared/dashboard/keys-http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitRotateKey } from '../../shared/dashboard/keys-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(
    deps,
    'keys',
    () => 'api-keys',
    (signed) => submitRotateKey(deps, signed),
  ),
  { maxBodyBytes: dashboardFormBytes },
);
