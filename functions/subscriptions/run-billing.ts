/**
 * Scheduled: the recurring billing step (D2, D14), everything due now: subscriptions and recurring
 * payment links; `billing run` is the same.
 */
import { configuredAcquirer } from '../../shared/acquirer/configured.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runLinkBilling } from '../../shared/payment-links/billing.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';

const deps = { ...makeDeps(), acquirer: configuredAcquirer() };

export const handler = async () => {
  const now = deps.clock();
  const [subscriptions, paymentLinks] = await Promise.all([runBilling(deps, now), runLinkBilling(deps, now)]);
  return { ...subscriptions, payment_links: paymentLinks };
};
