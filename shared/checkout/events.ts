/** Events of the checkout itself (internal: cobro's functions act on them; no webhook, no list). */
import * as v from 'valibot';
import { defineInternalEvent } from '../events/event.ts';

/** A subscription's checkout was paid (or its card checked, in a trial): its activation follows. */
export const subscriptionCheckoutPaid = defineInternalEvent(
  'checkout.subscription_paid',
  v.object({ session_token: v.string(), subscription_id: v.string() }),
);
