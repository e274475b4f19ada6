/**
 * The owner of every kind of checkout session (checkout's one extension point): payments', from
 * checkout itself, subscriptions' and payment links', from their areas above it, and the portal's
 * card replacements. The page functions and recovery take them from here.
 */
import type { Acquirer } from '../acquirer/acquirer.ts';
import type { SessionOwners } from '../checkout/owner.ts';
import { paymentPages } from '../checkout/payment-owner.ts';
import type { Deps } from '../db/deps.ts';
import { linkPages } from '../payment-links/page.ts';
import { cardPages } from '../portal/card.ts';
import { subscriptionPages } from '../subscriptions/page.ts';

export const sessionOwners = (deps: Deps & { baseUrl: string; acquirer: Acquirer }): SessionOwners => ({
  payment: paymentPages(deps),
  subscription: subscriptionPages(deps),
  link: linkPages(deps),
  card: cardPages(deps),
});
