/** Events about payment links (docs/design.md#events). */
import * as v from 'valibot';
import { defineEvent } from '../events/event.ts';
import { LinkListItemSchema } from './link.ts';

/** A link was paid: the link as it stands after the payment (list form), and the charge. */
export const paymentLinkPaid = defineEvent(
  'payment_link.paid',
  v.object({ object: LinkListItemSchema, charge_id: v.string(), customer_id: v.nullable(v.string()) }),
);
