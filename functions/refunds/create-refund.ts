/**
 * POST /v1/refunds/: refunds a charge in full (no `amount`) or in part. 201 with the refund.
 * A charge named in the body that is absent (or another account's) is 400, not 404.
 */
import { acquirerDeps } from '../../shared/acquirer/configured.ts';
import { validate } from '../../shared/core/validation.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { CreateRefundSchema, refundView } from '../../shared/refunds/refund.ts';
import { refundCharge } from '../../shared/refunds/service.ts';

const deps = acquirerDeps();

export const handler = endpoint(async ({ body, scope, idempotencyKey }) => {
  const input = validate(CreateRefundSchema, body);
  const refund = await refundCharge(deps, scope, input, idempotencyKey);
  return { status: 201, body: refundView(refund) };
});
