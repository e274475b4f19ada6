/** POST /dashboard/sign-in: a secret API key opens a dashboard session (shared/dashboard/http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, submitSignIn } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(submitSignIn(deps), { maxBodyBytes: dashboardFormBytes });
