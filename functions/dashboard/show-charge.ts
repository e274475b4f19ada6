/** GET /dashboard/charges/{id}: one charge, its refunds and the refund form (shared/dashboard/charges-http.ts). */
import { showCharge } from '../../shared/dashboard/charges-http.ts';
import { chargePath, dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'charges', chargePath, (signed) => showCharge(deps, signed)),
  { parseBody: false },
);
