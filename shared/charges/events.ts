/** Events about charges (the event catalogue's charges part), and the internal one of declines. */
import * as v from 'valibot';
import { declineReasons } from '../acquirer/acquirer.ts';
import { defineEvent, defineInternalEvent } from '../events/event.ts';
import { ChargeViewSchema } from './schemas.ts';

/**
 * A card was charged, whatever for (checkout, subscriptions, payment links, the legacy charge):
 * the charge in its list view, saying what it pays for.
 */
export const chargeSucceeded = defineEvent('charge.succeeded', v.object({ object: ChargeViewSchema }));

/**
 * Internal (no webhook, not in the events API): the acquirer declined a card its holder presented,
 * where no catalogue event reports it (a payment's checkout has `payment.failed`), one per declined
 * try, for the dashboard's decline counter. `source` says where:
 * - `subscription`, `link`: a subscription's or a payment link's checkout page;
 * - `card`: the customer portal's card page, checking a replacement card;
 * - `legacy`: the legacy direct charge (`POST /v1/charges/simple/create/`).
 * A renewal charged without the cardholder is no such decline: `subscription.payment_failed` tells it.
 */
export const cardDeclined = defineInternalEvent(
  'card.declined',
  v.object({
    source: v.picklist(['subscription', 'link', 'card', 'legacy']),
    decline_reason: v.picklist(declineReasons),
  }),
);
