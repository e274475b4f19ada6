/** GET /v1/refunds/{refund_id}/: one refund, by its id or its `re_` provider id. */

import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { RawError } from '../../shared/http/errors.ts';
import { refundIdOf, refundView } from '../../shared/refunds/refund.ts';
import { getRefund } from '../../shared/refunds/repository.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => {
  const id = refundIdOf(params.refund_id ?? '');
  const refund = await getRefund(deps, scope, id);
  // An absent refund (or charge) is 404 with a `detail` body, not the message envelope.
  if (!refund) throw new RawError(404, { detail: 'Not found.' });
  return { status: 200, body: refundView(refund) };
});
