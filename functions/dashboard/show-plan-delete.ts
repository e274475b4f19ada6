/** GET /dashboard/plans/{id}/delete: what deleting the plan does, and its form (shared/dashboard/catalog-http.ts). */
import { catalogPath, showPlanDelete } from '../../shared/dashboard/catalog-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'plans', catalogPath('plans'), (signed) => showPlanDelete(deps, signed)),
  { parseBody: false },
);
