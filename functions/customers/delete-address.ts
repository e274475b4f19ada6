/** DELETE /v1/customers/{id}/addresses/{address_id}/: 200; 404 for an unknown customer or address. */
import { envelope, NotFound } from '../../shared/core/errors.ts';
import { deleteAddress } from '../../shared/customers/repository.ts';
import { customerIdParam } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const handler = endpoint(async ({ params, account, mode, lang }) => {
  const addressId = params.address_id ?? '';
  if (!uuid.test(addressId)) throw new NotFound('address_not_found');
  await deleteAddress(
    deps,
    { developerId: account.developerId, mode },
    customerIdParam(params.id),
    addressId.toLowerCase(),
  );
  return { status: 200, body: envelope(200, 'address_deleted', lang, { type: 'success' }) };
});
