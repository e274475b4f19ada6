/** POST /v1/events/{id}/redeliver/: 202; the event is sent again with its original webhook-id. */
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { RedeliverSchema } from '../../shared/webhooks/endpoint.ts';
import { redeliverEvent } from '../../shared/webhooks/events.ts';
import { webhookMessages } from '../../shared/webhooks/messages.ts';
import { eventIdParam } from '../../shared/webhooks/service.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, body, scope, lang }) => {
  const count = await redeliverEvent(deps, scope, eventIdParam(params.id), validate(RedeliverSchema, body));
  return {
    status: 202,
    body: envelope(202, webhookMessages.event_redelivery_queued, lang, {
      type: 'success',
      params: { count: String(count) },
    }),
  };
});
