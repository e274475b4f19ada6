/** POST /dashboard/language: the dashboard's language switch (shared/dashboard/http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, submitLanguage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(submitLanguage(deps), { maxBodyBytes: dashboardFormBytes });
