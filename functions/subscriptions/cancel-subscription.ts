/** DELETE /v1/subscriptions/{id}: 200 with `subscription_id`; 404 absent, 409 already canceled. */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { subscriptionMessages } from '../../shared/subscriptions/messages.ts';
import { cancelSubscription } from '../../shared/subscriptions/service.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope, lang }) => {
  const canceled = await cancelSubscription(deps, scope, params.id ?? '', 'requested');
  const body = envelope(200, subscriptionMessages.subscription_canceled, lang, { type: 'success' }) as Record<
    string,
    unknown
  >;
  return { status: 200, body: { ...body, subscription_id: canceled.id } };
});
