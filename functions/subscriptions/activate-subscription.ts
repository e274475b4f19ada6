/** Target of `checkout.subscription_paid`: starts the subscription (D14), once however often it comes. */
import type { EventBridgeEvent } from 'aws-lambda';
import { subscriptionCheckoutPaid } from '../../shared/checkout/events.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { activateSubscription } from '../../shared/subscriptions/service.ts';

const deps = makeDeps();

export const handler = async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const detail = subscriptionCheckoutPaid.read(event.detail);
  await activateSubscription(
    deps,
    { developerId: detail.developer_id, mode: detail.test ? 'test' : 'live' },
    { subscriptionId: detail.data.subscription_id, sessionToken: detail.data.session_token },
  );
};
