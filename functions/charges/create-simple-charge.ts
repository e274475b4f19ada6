/**
 * POST /v1/charges/simple/create/ (deprecated in favour of /v1/payments/): charges a card
 * directly. 201 with the charge in the list view; a decline is 402 `payment_failed`.
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { chargeView } from '../../shared/charges/charge.ts';
import { LegacyChargeSchema } from '../../shared/charges/legacy.ts';
import { chargeCard } from '../../shared/charges/service.ts';
import { validate } from '../../shared/core/validation.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = acquirerDeps();

export const handler = endpoint(async ({ body, scope, idempotencyKey }) => {
  const input = validate(LegacyChargeSchema, body);
  const charge = await chargeCard(deps, scope, input, idempotencyKey);
  return { status: 201, body: chargeView(charge) };
});
