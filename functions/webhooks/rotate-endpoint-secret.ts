/**
 * POST /v1/webhook-endpoints/{id}/rotate-secret/: 200 with `data` `{id, secret}`; the old secret
 * signs beside it for 24 hours.
 */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { webhookMessages } from '../../shared/webhooks/messages.ts';
import { secretBox } from '../../shared/webhooks/secrets.ts';
import { endpointIdParam, rotateSecret } from '../../shared/webhooks/service.ts';

const deps = { ...makeDeps(), secrets: secretBox() };

export const handler = endpoint(async ({ params, scope, lang }) => {
  const rotated = await rotateSecret(deps, scope, endpointIdParam(params.id));
  return {
    status: 200,
    body: envelope(200, webhookMessages.webhook_secret_rotated, lang, {
      type: 'success',
      data: { id: rotated.endpoint.id, secret: rotated.secret },
    }),
  };
});
