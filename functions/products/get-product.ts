/** GET /v1/products/{id}/: one active product of the account, in the request's mode; 404 otherwise. */
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { productView } from '../../shared/products/product.ts';
import { getProduct } from '../../shared/products/repository.ts';
import { productIdParam } from '../../shared/products/service.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ params, scope }) => {
  const product = await getProduct(deps, scope, productIdParam(params.id));
  return { status: 200, body: productView(product, baseUrl) };
});
