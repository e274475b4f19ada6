/** GET /dashboard/api-keys: both keys, masked (shared/dashboard/keys-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showKeys } from '../../shared/dashboard/keys-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'keys',
    () => 'api-keys',
    (signed) => showKeys(deps, signed),
  ),
  { parseBody: false },
);
