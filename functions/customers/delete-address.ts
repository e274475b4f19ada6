/** DELETE /v1/customers/{id}/addresses/{address_id}/: 200; 404 for an unknown customer or address. */
import { envelope } from '../../shared/core/errors.ts';
import { customerMessages } from '../../shared/customers/messages.ts';
import { deleteAddress } from '../../shared/customers/repository.ts';
import { addressIdParam, customerIdParam } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope, lang }) => {
  await deleteAddress(deps, scope, customerIdParam(params.id), addressIdParam(params.address_id));
  return { status: 200, body: envelope(200, customerMessages.address_deleted, lang, { type: 'success' }) };
});
