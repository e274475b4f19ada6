/** PUT /v1/webhook-endpoints/{id}/: url, events, description, enabled. */
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import {
  endpointView,
  eventTypesOfEnvironment,
  updateEndpointSchema,
} from '../../shared/webhooks/endpoint.ts';
import { webhookMessages } from '../../shared/webhooks/messages.ts';
import { getEndpoint } from '../../shared/webhooks/repository.ts';
import { endpointIdParam, updateEndpoint } from '../../shared/webhooks/service.ts';

const deps = makeDeps();
const schema = updateEndpointSchema(eventTypesOfEnvironment());

export const handler = endpoint(async ({ params, body, scope, lang }) => {
  const id = endpointIdParam(params.id);
  await getEndpoint(deps, scope, id); // an absent endpoint is 404 before its body is judged
  // No body changes nothing, as an empty object does (the same as every other update).
  const updated = await updateEndpoint(deps, scope, id, validate(schema, body));
  return {
    status: 200,
    body: envelope(200, webhookMessages.webhook_endpoint_updated, lang, {
      type: 'success',
      data: endpointView(updated),
    }),
  };
});
