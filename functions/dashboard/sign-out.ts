/** POST /dashboard/sign-out: ends the dashboard session (shared/dashboard/http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, submitSignOut } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(submitSignOut(deps), { maxBodyBytes: dashboardFormBytes });
