/** GET /dashboard/plans: the plans list and the create form (shared/dashboard/plans-http.ts). */

import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showPlans } from '../../shared/dashboard/plans-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'plans',
    () => 'plans',
    (signed) => showPlans(deps, signed),
  ),
  { parseBody: false },
);
