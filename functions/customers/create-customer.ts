/**
 * POST /v1/customers/: 201 with the new customer as `data`; a taken e-mail (in this account and mode)
 * is 400.
 */
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { customerView, newCustomer } from '../../shared/customers/customer.ts';
import { customerMessages } from '../../shared/customers/messages.ts';
import { createCustomer } from '../../shared/customers/repository.ts';
import { CreateCustomerSchema } from '../../shared/customers/schemas.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ body, scope, lang }) => {
  const customer = newCustomer(validate(CreateCustomerSchema, body), {
    ...scope,
    now: deps.clock(),
  });
  await createCustomer(deps, customer);
  return {
    status: 201,
    body: envelope(201, customerMessages.customer_created, lang, {
      type: 'success',
      data: customerView(customer, baseUrl),
    }),
  };
});
