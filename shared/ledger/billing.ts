/**
 * The billing run: every recurring step due, subscriptions' (renewals, trial ends, dunning) and
 * recurring payment links', assembled. The scheduled function runs it every 15 minutes deployed;
 * `cobro billing run` runs the same, for one account when given.
 */
import { runLinkBilling } from '../payment-links/billing.ts';
import { type BillingDeps, runBilling } from '../subscriptions/billing.ts';

/** Runs both steps at `now` (of `account` alone when given); the subscriptions' summary with the links' beside it. */
export async function runAllBilling(deps: BillingDeps, now: Date, account?: { developerId: number }) {
  const [subscriptions, paymentLinks] = await Promise.all([
    runBilling(deps, now, account),
    runLinkBilling(deps, now, account),
  ]);
  return { ...subscriptions, payment_links: paymentLinks };
}
