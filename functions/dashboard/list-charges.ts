/** GET /dashboard/charges: the payments list as a page (shared/dashboard/charges-http.ts). */
import { showCharges } from '../../shared/dashboard/charges-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'charges',
    () => 'charges',
    (signed) => showCharges(deps, signed),
  ),
  { parseBody: false },
);
