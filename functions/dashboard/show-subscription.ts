/** GET /dashboard/subscriptions/{id}: one subscription (shared/dashboard/subscriptions-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showSubscription, subscriptionPath } from '../../shared/dashboard/subscriptions-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'subscriptions', subscriptionPath, (signed) => showSubscription(deps, signed)),
  { parseBody: false },
);
