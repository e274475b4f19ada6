/** POST /dashboard/links/{id}/delete: deletes the link through the payment links area's deleteLink (shared/dashboard/links-http.ts). */
import { catalogPath } from '../../shared/dashboard/catalog-http.ts';
import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitLinkDelete } from '../../shared/dashboard/links-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(deps, 'links', catalogPath('links'), (signed) => submitLinkDelete(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
