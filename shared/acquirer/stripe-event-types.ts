/** The Stripe events cobro acts on: what the webhook endpoint pointed at cobro must send. */
export const stripeEventTypes = [
  'checkout.session.completed',
  'checkout.session.expired',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'charge.refunded',
  'refund.updated',
  'charge.dispute.created',
  'payout.paid',
] as const;
