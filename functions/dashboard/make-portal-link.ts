/**
 * POST /dashboard/customers/{id}/portal: a customer portal link, through the portal area's
 * createPortal (shared/dashboard/customers-http.ts).
 */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { customerPath, submitPortalLink } from '../../shared/dashboard/customers-http.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { stagePortalKeys } from '../../shared/portal/service.ts';

const deps = { ...dashboardDeps(), portalKeys: stagePortalKeys() };

export const handler = publicEndpoint(
  signedInForm(deps, 'customers', customerPath, (signed) => submitPortalLink(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
