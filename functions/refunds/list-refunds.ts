/** GET /v1/refunds/: the account's refunds, newest first, as a bare array; `charge_id` narrows to one charge. */
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { parseRefundListQuery } from '../../shared/refunds/list-query.ts';
import { refundView } from '../../shared/refunds/refund.ts';
import { listRefunds } from '../../shared/refunds/repository.ts';

const deps = makeDeps();
/** The list has no paging in the contract; this bounds one answer. */
const maxRefunds = 1000;

export const handler = endpoint(async ({ query, scope }) => {
  const refunds = await listRefunds(deps, scope, { ...parseRefundListQuery(query), limit: maxRefunds });
  return { status: 200, body: refunds.map(refundView) };
});
