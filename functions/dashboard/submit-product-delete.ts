/** POST /dashboard/products/{id}/delete: deletes the product through the products area's deactivateProduct (shared/dashboard/products-http.ts). */
import { catalogPath } from '../../shared/dashboard/catalog-http.ts';
import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitProductDelete } from '../../shared/dashboard/products-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInForm(deps, 'products', catalogPath('products'), (signed) => submitProductDelete(deps, signed)),
  { maxBodyBytes: dashboardFormBytes },
);
