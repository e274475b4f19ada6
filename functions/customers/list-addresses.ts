/** GET /v1/customers/{id}/addresses/: a bare array, oldest first. */
import { addressView } from '../../shared/customers/customer.ts';
import { listAddresses } from '../../shared/customers/repository.ts';
import { customerIdParam } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => {
  const addresses = await listAddresses(deps, scope, customerIdParam(params.id));
  return { status: 200, body: addresses.map(addressView) };
});
