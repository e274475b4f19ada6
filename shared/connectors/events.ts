/** The event cobro publishes of what a connector reports (the catalogue's connectors part). */
import * as v from 'valibot';
import { defineEvent } from '../events/event.ts';

/** A dispute as webhooks see it: the acquirer's facts about it, and the charge disputed. */
export const DisputeViewSchema = v.object({
  id: v.pipe(v.string(), v.description("The acquirer's id of the dispute (Stripe's `dp_…`).")),
  charge_id: v.pipe(v.string(), v.description('The `ch_…` charge disputed.')),
  payment_id: v.nullable(v.string()),
  subscription_id: v.nullable(v.string()),
  payment_link_id: v.nullable(v.string()),
  amount: v.pipe(v.string(), v.description('What the cardholder disputes, in major units.')),
  currency: v.string(),
  reason: v.pipe(
    v.string(),
    v.description("The acquirer's reason (`fraudulent`, `product_not_received`, …)."),
  ),
  status: v.pipe(
    v.string(),
    v.description("The acquirer's status when it was opened (`needs_response`, …)."),
  ),
  test: v.boolean(),
  created_at: v.string(),
});
export type DisputeView = v.InferOutput<typeof DisputeViewSchema>;

/**
 * A cardholder disputed a charge at their bank (a chargeback), as the account's acquirer reported it:
 * the dispute and the charge it is about. Stored and published once, until disputes have their own API.
 */
export const chargeDisputeCreated = defineEvent(
  'charge.dispute.created',
  v.object({ object: DisputeViewSchema }),
);
