/**
 * POST /dashboard/subscriptions/{id}/cancel: the confirmed cancel, through the subscriptions area's
 * cancelSubscription (shared/dashboard/subscriptions-http.ts).
 */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitCancel, subscriptionPath } from '../../shared/dashboard/subscriptions-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(deps, 'subscriptions', subscriptionPath, (signed) => submitCancel(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
