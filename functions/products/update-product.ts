/**
 * PUT /v1/products/{id}/: omitted fields keep their values; `default` and `additional_images` take
 * `-1` (keep), `-remove-` (remove) or files (replace).
 */
import { envelope } from '../../shared/core/errors.ts';
import { formatAmount } from '../../shared/core/money/amount.ts';
import { currencyOf } from '../../shared/core/money/fields.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { s3MediaStore } from '../../shared/media/store.ts';
import { productMessages } from '../../shared/products/messages.ts';
import { productIdParam, updateProductFromForm } from '../../shared/products/service.ts';

const deps = { ...makeDeps(), media: s3MediaStore() };

export const handler = endpoint(async ({ body, params, scope, lang }) => {
  const product = await updateProductFromForm(deps, scope, productIdParam(params.id), body);
  const currency = currencyOf(product);
  const data = {
    id: product.id,
    name: product.name,
    description: product.description,
    price: formatAmount(product.price, currency),
    stock: product.stock,
    total_price: formatAmount(product.total_price, currency),
  };
  return {
    status: 200,
    body: envelope(200, productMessages.product_updated, lang, { type: 'success', data }),
  };
});
