/** POST /dashboard/plans/{id}/active: archives or restores the plan through the plans area's changePlan (shared/dashboard/plans-http.ts). */
import { catalogPath } from '../../shared/dashboard/catalog-http.ts';
import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitPlanActive } from '../../shared/dashboard/plans-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(deps, 'plans', catalogPath('plans'), (signed) => submitPlanActive(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
