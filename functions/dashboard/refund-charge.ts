/**
 * POST /dashboard/charges/{id}/refunds: the refund form, through the refunds area's refundCharge
 * (shared/dashboard/charges-http.ts).
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { submitRefund } from '../../shared/dashboard/charges-http.ts';
import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { chargePath, dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps(acquirerDeps());

export const handler = publicEndpoint(
  signedInForm(deps, 'charges', chargePath, (signed) => submitRefund(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
