/**
 * The owner of every kind of checkout session (checkout's one extension point): payments', from
 * checkout itself, subscriptions' and payment links', from their areas above it. The page
 * functions and recovery take them from here.
 */
import type { SessionOwners } from '../checkout/owner.ts';
import { paymentPages } from '../checkout/payment-owner.ts';
import type { Deps } from '../db/deps.ts';
import { linkPages } from '../payment-links/page.ts';
import { subscriptionPages } from '../subscriptions/page.ts';

export const sessionOwners = (deps: Deps & { baseUrl: string }): SessionOwners => ({
  payment: paymentPages(deps),
  subscription: subscriptionPages(deps),
  link: linkPages(deps),
});
