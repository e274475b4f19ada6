/** GET /dashboard/links/{id}/delete: what deleting the link does, and its form (shared/dashboard/links-http.ts). */
import { catalogPath } from '../../shared/dashboard/catalog-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showLinkDelete } from '../../shared/dashboard/links-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'links', catalogPath('links'), (signed) => showLinkDelete(deps, signed)),
  { parseBody: false },
);
