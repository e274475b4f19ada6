/** GET /dashboard/customers/{id}: one customer, their subscriptions and charges (shared/dashboard/customers-http.ts). */
import { customerPath, showCustomer } from '../../shared/dashboard/customers-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'customers', customerPath, (signed) => showCustomer(deps, signed)),
  { parseBody: false },
);
