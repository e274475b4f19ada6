import type { Route } from '../http/route.ts';
import { LegacyChargeSchema } from './legacy.ts';
import { ChargeViewSchema } from './schemas.ts';

export const chargesRoutes: readonly Route[] = [
  {
    method: 'POST',
    path: '/v1/charges/simple/create/',
    handler: 'functions/charges/create-simple-charge.ts',
    operationId: 'createSimpleCharge',
    auth: true,
    access: {
      table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['gsi1'] },
    },
    summary: 'Deprecated (use /v1/payments/): charge a card directly; multipart or form fields',
    description:
      'Charges the card in the body at once, without a checkout page, for integrations written before payments; amounts are in major units. A card that needs a 3-D Secure challenge declines with `authentication_required`, and the charge is stored as an attempt before the acquirer is asked, so a retry with the same Idempotency-Key never charges twice.',
    body: LegacyChargeSchema,
    bodyTypes: ['multipart/form-data', 'application/x-www-form-urlencoded'],
    deprecated: true,
    answers: { 201: { description: 'Charged (list view)', json: ChargeViewSchema } },
    errors: {
      400: {
        description:
          'Invalid input or malformed body; or the amount is below the equivalent of USD 1.00 in its currency; or the card is not one: its number fails the Luhn check, or it has expired',
        body: 'MessageEnvelope',
      },
      402: {
        description: 'Declined: `type` payment_failed with `decline_reason`',
        body: 'ErrorObject',
      },
      504: {
        description:
          'The acquirer did not answer in time: the charge is being confirmed; the same request with the same Idempotency-Key answers its outcome',
        body: 'MessageEnvelope',
      },
    },
  },
  {
    method: 'GET',
    path: '/v1/charges/{charge_id}/',
    handler: 'functions/charges/get-charge.ts',
    operationId: 'getCharge',
    auth: true,
    access: { table: { actions: ['GetItem', 'Query'] } },
    summary: 'One charge (list view): what it pays for, and what was refunded of it',
    description:
      'Shows a charge of any source (a payment, a subscription period, a payment link or a direct charge) in the list view, amounts in major units, with what it pays for and the amount refunded so far.',
    answers: { 200: { description: 'The charge', json: ChargeViewSchema } },
    errors: { 404: { description: 'No such charge', body: 'DetailError' } },
  },
];
