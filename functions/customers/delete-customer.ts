/** DELETE /v1/customers/{id}/: removes the customer and its addresses; its e-mail becomes free. */
import { envelope } from '../../shared/core/errors.ts';
import { customerMessages } from '../../shared/customers/messages.ts';
import { deleteCustomer } from '../../shared/customers/repository.ts';
import { customerIdParam } from '../../shared/customers/service.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope, lang }) => {
  await deleteCustomer(deps, scope, customerIdParam(params.id), deps.clock());
  return { status: 200, body: envelope(200, customerMessages.customer_deleted, lang, { type: 'success' }) };
});
