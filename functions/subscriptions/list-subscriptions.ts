/** GET /v1/subscriptions: Envelope A, newest first, by `status` and `plan_id`. */
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { SubscriptionListQuerySchema } from '../../shared/subscriptions/schemas.ts';
import { listSubscriptions } from '../../shared/subscriptions/service.ts';
import { subscriptionListItem } from '../../shared/subscriptions/subscription.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ query, scope }) => {
  const page = await listSubscriptions(deps, scope, validate(SubscriptionListQuerySchema, query));
  return { status: 200, body: { ...page, results: page.results.map(subscriptionListItem) } };
});
