/**
 * POST /v1/refunds/: refunds a charge in full (no `amount`) or in part. 201 with the refund.
 * A charge named in the body that is absent (or another account's) is 400 (D12).
 */

import { configuredAcquirer } from '../../shared/acquirer/configured.ts';
import { makeDeps } from '../../shared/deps.ts';
import { eventPublisher, sendCommitted } from '../../shared/events/publish.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { BadRequest } from '../../shared/http/errors.ts';
import { validate } from '../../shared/http/validation.ts';
import { getCharge } from '../../shared/payments/repository.ts';
import { CreateRefundSchema, refundView } from '../../shared/refunds/refund.ts';
import { refundAtAcquirer, refundWithRetry } from '../../shared/refunds/service.ts';

const deps = { ...makeDeps(), acquirer: configuredAcquirer() };
const events = eventPublisher();

export const handler = endpoint(async ({ body, account, mode }) => {
  const input = validate(CreateRefundSchema, body);
  const scope = { developerId: account.developerId, mode };
  const charge = /^ch_[A-Za-z0-9]{24}$/.test(input.charge_id)
    ? await getCharge(deps, scope, input.charge_id)
    : undefined;
  if (!charge) throw new BadRequest('refund_charge_absent');
  const { refund, event } = await refundWithRetry(deps, input, charge);
  await refundAtAcquirer(deps, refund, charge);
  await sendCommitted(events, event);
  return { status: 201, body: refundView(refund) };
});
