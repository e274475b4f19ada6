/** DELETE /v1/products/{id}/: removes and deactivates the product; payment links naming it keep working. */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { productMessages } from '../../shared/products/messages.ts';
import { deactivateProduct } from '../../shared/products/repository.ts';
import { productIdParam } from '../../shared/products/service.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope, lang }) => {
  await deactivateProduct(deps, scope, productIdParam(params.id), deps.clock());
  return { status: 200, body: envelope(200, productMessages.product_deleted, lang, { type: 'success' }) };
});
