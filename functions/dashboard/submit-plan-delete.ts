/** POST /dashboard/plans/{id}/delete: deletes the plan through the plans area's removePlan (shared/dashboard/plans-http.ts). */
import { catalogPath } from '../../shared/dashboard/catalog-http.ts';
import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitPlanDelete } from '../../shared/dashboard/plans-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(deps, 'plans', catalogPath('plans'), (signed) => submitPlanDelete(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
