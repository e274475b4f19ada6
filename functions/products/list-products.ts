/** GET /v1/products/: active products, newest first, in Envelope A. */
import { numberedPage } from '../../shared/core/pagination.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { productView } from '../../shared/products/product.ts';
import { listProducts } from '../../shared/products/repository.ts';
import { ProductListQuerySchema } from '../../shared/products/schemas.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ query, scope }) => {
  const listQuery = validate(ProductListQuerySchema, query);
  const { count, products } = await listProducts(deps, scope, listQuery);
  return {
    status: 200,
    body: numberedPage(
      count,
      listQuery.page,
      products.map((product) => productView(product, baseUrl)),
    ),
  };
});
