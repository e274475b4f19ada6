/** GET /dashboard/subscriptions/{id}/cancel: the cancel's confirmation step (shared/dashboard/subscriptions-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showCancel, subscriptionPath } from '../../shared/dashboard/subscriptions-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'subscriptions', subscriptionPath, (signed) => showCancel(deps, signed)),
  { parseBody: false },
);
