/** DELETE /v1/payment-links/{id}/: 200 (message envelope); the link's page stops taking payments. */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { paymentLinkMessages } from '../../shared/payment-links/messages.ts';
import { deleteLink, linkIdParam } from '../../shared/payment-links/service.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope, lang }) => {
  await deleteLink(deps, scope, linkIdParam(params.id));
  return {
    status: 200,
    body: envelope(200, paymentLinkMessages.payment_link_deleted, lang, { type: 'success' }),
  };
});
