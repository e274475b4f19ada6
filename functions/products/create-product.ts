/** POST /v1/products/: a multipart form (or JSON/url-encoded without files); 201 with the product. */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { s3MediaStore } from '../../shared/media/store.ts';
import { productMessages } from '../../shared/products/messages.ts';
import { productView } from '../../shared/products/product.ts';
import { createProductFromForm } from '../../shared/products/service.ts';

const deps = { ...makeDeps(), media: s3MediaStore() };
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ body, scope, lang }) => {
  const product = await createProductFromForm(deps, scope, body);
  return {
    status: 201,
    body: envelope(201, productMessages.product_created, lang, {
      type: 'success',
      data: productView(product, baseUrl),
    }),
  };
});
