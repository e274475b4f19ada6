/** GET /dashboard/links: the payment links list and the create form (shared/dashboard/links-http.ts). */

import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showLinks } from '../../shared/dashboard/links-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'links',
    () => 'links',
    (signed) => showLinks(deps, signed),
  ),
  { parseBody: false },
);
