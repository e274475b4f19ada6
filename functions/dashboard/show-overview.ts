/** GET /dashboard/: the dashboard's first page, with the newest charges (shared/dashboard/charges-http.ts). */
import { showOverview } from '../../shared/dashboard/charges-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'overview',
    () => '',
    (signed) => showOverview(deps, signed),
  ),
  { parseBody: false },
);
