/** GET /v1/customers/{id}/: one customer of the account, in the request's mode; 404 otherwise. */
import { customerView } from '../../shared/customers/customer.ts';
import { getCustomer } from '../../shared/customers/repository.ts';
import { customerIdParam } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ params, scope }) => {
  const customer = await getCustomer(deps, scope, customerIdParam(params.id));
  return { status: 200, body: customerView(customer, baseUrl) };
});
