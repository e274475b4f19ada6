/** GET /dashboard/subscriptions: the subscriptions list as a page (shared/dashboard/subscriptions-http.ts). */
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showSubscriptions } from '../../shared/dashboard/subscriptions-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'subscriptions',
    () => 'subscriptions',
    (signed) => showSubscriptions(deps, signed),
  ),
  { parseBody: false },
);
