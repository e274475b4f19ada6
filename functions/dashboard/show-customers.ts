/** GET /dashboard/customers: the customers list as a page (shared/dashboard/customers-http.ts). */
import { showCustomers } from '../../shared/dashboard/customers-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'customers',
    () => 'customers',
    (signed) => showCustomers(deps, signed),
  ),
  { parseBody: false },
);
