/** GET /dashboard/sign-in: the dashboard's sign-in form (shared/dashboard/http.ts). */
import { dashboardDeps, showSignIn } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(showSignIn(deps), { parseBody: false });
