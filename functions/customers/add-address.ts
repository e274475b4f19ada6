/** POST /v1/customers/{id}/addresses/: 201 with the address as `data`; a fourth is 406. */
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { addressView, newAddress } from '../../shared/customers/customer.ts';
import { customerMessages } from '../../shared/customers/messages.ts';
import { addAddress } from '../../shared/customers/repository.ts';
import { AddAddressSchema } from '../../shared/customers/schemas.ts';
import { customerIdParam } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ body, params, scope, lang }) => {
  const address = newAddress(validate(AddAddressSchema, body), customerIdParam(params.id), deps.clock());
  await addAddress(deps, scope, address);
  return {
    status: 201,
    body: envelope(201, customerMessages.address_added, lang, {
      type: 'success',
      data: addressView(address),
    }),
  };
});
