/** GET /dashboard/products/{id}/delete: what deleting the product does, and its form (shared/dashboard/products-http.ts). */
import { catalogPath } from '../../shared/dashboard/catalog-http.ts';
import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showProductDelete } from '../../shared/dashboard/products-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(deps, 'products', catalogPath('products'), (signed) => showProductDelete(deps, signed)),
  { parseBody: false },
);
