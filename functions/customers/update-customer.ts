/** PUT /v1/customers/{id}/: changes the fields given; omitted fields keep their values. */
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { customerChanges, customerView } from '../../shared/customers/customer.ts';
import { customerMessages } from '../../shared/customers/messages.ts';
import { updateCustomer } from '../../shared/customers/repository.ts';
import { UpdateCustomerSchema } from '../../shared/customers/schemas.ts';
import { customerIdParam } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ body, params, scope, mode, lang }) => {
  const id = customerIdParam(params.id);
  const changes = customerChanges(validate(UpdateCustomerSchema, body), mode);
  const customer = await updateCustomer(deps, scope, id, changes, deps.clock());
  return {
    status: 200,
    body: envelope(200, customerMessages.customer_updated, lang, {
      type: 'success',
      data: customerView(customer, baseUrl),
    }),
  };
});
