/**
 * GET /v1/subscriptions/{x}: `sub_…` is one subscription; a UUID is a plan key and answers
 * that plan's subscriptions (404 when the plan is absent); anything else is 404.
 */
import { NotFound } from '../../shared/core/errors.ts';
import { uuidParam } from '../../shared/core/ids.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { subscriptionMessages } from '../../shared/subscriptions/messages.ts';
import { isSubscriptionId, planSubscriptions, subscriptionOf } from '../../shared/subscriptions/service.ts';
import { planSubscriptionItem, subscriptionView } from '../../shared/subscriptions/subscription.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => {
  const id = params.id ?? '';
  if (isSubscriptionId(id))
    return { status: 200, body: subscriptionView(await subscriptionOf(deps, scope, id)) };
  const planId = uuidParam(id, () => new NotFound(subscriptionMessages.subscription_not_found));
  return { status: 200, body: (await planSubscriptions(deps, scope, planId)).map(planSubscriptionItem) };
});
