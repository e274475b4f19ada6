/** POST /dashboard/products: the product form, through the products area's createProductFromForm (shared/dashboard/products-http.ts). */

import { dashboardFormBytes } from '../../shared/dashboard/common-routes.ts';
import { dashboardDeps, signedInForm } from '../../shared/dashboard/http.ts';
import { submitProduct } from '../../shared/dashboard/products-http.ts';
import { publicEndpoint } from '../../shared/http/handler.ts';
import { s3MediaStore } from '../../shared/media/store.ts';

const deps = { ...dashboardDeps(), media: s3MediaStore() };

export const handler = publicEndpoint(
  signedInForm(
    deps,
    'products',
    () => 'products',
    (signed) => submitProduct(deps, signed),
  ),
  { maxBodyBytes: dashboardFormBytes },
);
