/**
 * PUT /v1/subscriptions/{id}: changes the plan or quantity, the cancel at the period's end, or the
 * metadata; 200 with the subscription. 402 when a prorated difference is declined (nothing changes).
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { assertModeFlags } from '../../shared/core/account.ts';
import { validate } from '../../shared/core/validation.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { UpdateSubscriptionSchema } from '../../shared/subscriptions/schemas.ts';
import { subscriptionView } from '../../shared/subscriptions/subscription.ts';
import { updateSubscription } from '../../shared/subscriptions/update.ts';

const deps = acquirerDeps();

export const handler = endpoint(async ({ params, body, scope, idempotencyKey }) => {
  const input = validate(UpdateSubscriptionSchema, body);
  assertModeFlags(input, scope.mode);
  const { subscription } = await updateSubscription(deps, scope, params.id ?? '', input, idempotencyKey);
  return { status: 200, body: subscriptionView(subscription) };
});
