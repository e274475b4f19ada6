/** The connectors area's routes: where a connector's own events reach cobro. */
import * as v from 'valibot';
import type { Route } from '../http/route.ts';

/** What a taken event answers: Stripe needs only the 2xx; the rest is for an operator reading logs. */
const ReceivedSchema = v.object({
  outcome: v.pipe(
    v.picklist(['handled', 'duplicate', 'ignored']),
    v.description(
      'Acted on now; a duplicate of an event taken before (nothing done); or nothing for cobro to do.',
    ),
  ),
  event_id: v.string(),
  type: v.string(),
  detail: v.optional(v.string()),
});

export const connectorsRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/connectors/stripe/{account_id}/events/',
    handler: 'functions/connectors/receive-stripe-event.ts',
    operationId: 'receiveStripeEvent',
    auth: false,
    // It finishes attempts as recovery does (checkouts, renewals, refunds), records disputes with
    // their event, and opens the connection's secrets with the webhook key.
    access: {
      table: {
        actions: [
          'GetItem',
          'BatchGetItem',
          'Query',
          'PutItem',
          'UpdateItem',
          'DeleteItem',
          'ConditionCheckItem',
        ],
        indexes: ['gsi1'],
      },
      webhookKey: true,
    },
    summary: "Stripe's signed events for an account connected to Stripe (for Stripe, not for API clients)",
    description:
      "Where the Stripe webhook endpoint of an account connected to Stripe posts (`accounts connect`). Refused with 400 unless `Stripe-Signature` verifies with that connection's signing secret; each Stripe event is taken once (a duplicate answers 200 and changes nothing). cobro reads the event and its object back from Stripe and acts on that, never on the body alone: a checkout paid on Stripe's page is recorded, a renewal's or refund's outcome is finished, a dispute is stored and published as `charge.dispute.created`, a payout is recorded on the charges it settled.",
    answers: { 200: { description: 'Taken (or a duplicate, or nothing to do)', json: ReceivedSchema } },
    errors: {
      400: {
        description: 'The signature does not verify (or the account has no Stripe connection)',
        body: 'MessageEnvelope',
      },
    },
  },
];
