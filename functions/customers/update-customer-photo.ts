/** PUT /v1/customers/{id}/photo/: multipart `photo`, JPEG or PNG by content, 5 MB at most. */
import { envelope } from '../../shared/core/errors.ts';
import { customerView } from '../../shared/customers/customer.ts';
import { customerMessages } from '../../shared/customers/messages.ts';
import { customerIdParam, replacePhoto } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { s3MediaStore } from '../../shared/media/store.ts';

const deps = { ...makeDeps(), media: s3MediaStore() };
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ body, params, scope, lang }) => {
  const id = customerIdParam(params.id);
  const fields =
    body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const customer = await replacePhoto(deps, scope, id, fields);
  return {
    status: 200,
    body: envelope(200, customerMessages.customer_photo_updated, lang, {
      type: 'success',
      data: customerView(customer, baseUrl),
    }),
  };
});
