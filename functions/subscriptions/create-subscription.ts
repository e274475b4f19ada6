/** POST /v1/subscriptions: 201 with `subscription_id`, the one-time `checkout_url` and `test`. */
import { pageUrl } from '../../shared/checkout/session.ts';
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { subscriptionMessages } from '../../shared/subscriptions/messages.ts';
import { CreateSubscriptionSchema } from '../../shared/subscriptions/schemas.ts';
import { createSubscription } from '../../shared/subscriptions/service.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ body, scope, mode, lang }) => {
  const input = validate(CreateSubscriptionSchema, body);
  const { subscription, session } = await createSubscription(deps, scope, input);
  return {
    status: 201,
    body: envelope(201, subscriptionMessages.subscription_created, lang, {
      type: 'success',
      data: {
        subscription_id: subscription.id,
        checkout_url: pageUrl(baseUrl, session.token),
        test: mode === 'test',
      },
    }),
  };
});
