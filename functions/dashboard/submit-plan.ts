/** POST /dashboard/plans: the plan form, through the plans area's addPlan (shared/dashboard/plans-http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitPlan } from '../../shared/dashboard/plans-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { s3MediaStore } from '../../shared/media/store.ts';

const deps = { ...dashboardDeps(), media: s3MediaStore() };

export const handler = publicEndpoint(
  signedInForm(
    deps,
    'plans',
    () => 'plans',
    (signed) => submitPlan(deps, signed),
  ),
  { maxBodyBytes: dashboardFormBytes },
);
