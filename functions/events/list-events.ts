/** GET /v1/events/: Envelope B of the last 30 days' events, newest first, optionally of one `type`. */
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { EventListQuerySchema, listEvents } from '../../shared/webhooks/events.ts';

const deps = { ...makeDeps(), baseUrl: publicBaseUrl() };

export const handler = endpoint(async ({ query, scope }) => ({
  status: 200,
  body: await listEvents(deps, scope, validate(EventListQuerySchema, query)),
}));
