/** POST /dashboard/links: the payment link form, through the payment links area's createLinks (shared/dashboard/links-http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitLink } from '../../shared/dashboard/links-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(
    deps,
    'links',
    () => 'links',
    (signed) => submitLink(deps, signed),
  ),
  { maxBodyBytes: dashboardFormBytes },
);
