/** GET /v1/refunds/{refund_id}/: one refund, by its id or its `re_` provider id; an absent one is 404 `{"detail": "Not found."}`. */

import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { refundIdOf, refundView } from '../../shared/refunds/refund.ts';
import { requireRefund } from '../../shared/refunds/repository.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => {
  const refund = await requireRefund(deps, scope, refundIdOf(params.refund_id ?? ''));
  return { status: 200, body: refundView(refund) };
});
