/** POST /v1/webhook-endpoints/: 201 with `data` `{id, url, events, secret}` (the secret shown this once). */
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { createEndpointSchema, eventTypesOfEnvironment } from '../../shared/webhooks/endpoint.ts';
import { webhookMessages } from '../../shared/webhooks/messages.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';
import { registerEndpoint } from '../../shared/webhooks/service.ts';

const deps = { ...makeDeps(), secrets: secretBox() };
const schema = createEndpointSchema(eventTypesOfEnvironment());

export const handler = endpoint(async ({ body, scope, lang }) => {
  const input = validate(schema, body);
  const { endpoint: created, secret } = await registerEndpoint(deps, scope, input);
  return {
    status: 201,
    body: envelope(201, webhookMessages.webhook_endpoint_created, lang, {
      type: 'success',
      data: { id: created.id, url: created.url, events: created.events, secret },
    }),
  };
});
