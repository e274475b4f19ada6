/** GET /dashboard/api-keys/rotate: the confirmation step of a key's rotation (shared/dashboard/keys-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showRotateKey } from '../../shared/dashboard/keys-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'keys',
    () => 'api-keys',
    (signed) => showRotateKey(deps, signed),
  ),
  { parseBody: false },
);
