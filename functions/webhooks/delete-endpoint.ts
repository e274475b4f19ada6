/** DELETE /v1/webhook-endpoints/{id}/: the endpoint receives nothing more. */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { webhookMessages } from '../../shared/webhooks/messages.ts';
import { deleteEndpoint } from '../../shared/webhooks/repository.ts';
import { endpointIdParam } from '../../shared/webhooks/service.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope, lang }) => {
  await deleteEndpoint(deps, scope, endpointIdParam(params.id));
  return {
    status: 200,
    body: envelope(200, webhookMessages.webhook_endpoint_deleted, lang, { type: 'success' }),
  };
});
