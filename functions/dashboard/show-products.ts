/** GET /dashboard/products: the products list and the create form (shared/dashboard/products-http.ts). */

import { dashboardDeps, signedInPage } from '../../shared/dashboard/http.ts';
import { showProducts } from '../../shared/dashboard/products-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';

const deps = dashboardDeps();

export const handler = publicEndpoint(
  signedInPage(
    deps,
    'products',
    () => 'products',
    (signed) => showProducts(deps, signed),
  ),
  { parseBody: false },
);
