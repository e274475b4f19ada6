/** GET /v1/events/{id}/: one event of the last 30 days, as webhooks deliver it. */
import { makeDeps } from '../../shared/db/deps.ts';
import { webhookBody } from '../../shared/events/webhook-body.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { getEvent } from '../../shared/webhooks/events.ts';
import { eventIdParam } from '../../shared/webhooks/service.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => ({
  status: 200,
  body: webhookBody(await getEvent(deps, scope, eventIdParam(params.id))),
}));
