/** GET /dashboard/plans/{id}/delete: what deleting the plan does, and its form (shared/dashboard/plans-http.ts). */
import { catalogPath } from '../../shared/dashboard/catalog-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showPlanDelete } from '../../shared/dashboard/plans-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'plans', catalogPath('plans'), (signed) => showPlanDelete(deps, signed)),
  { parseBody: false },
);
