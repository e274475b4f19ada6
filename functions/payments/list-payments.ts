/**
 * GET /v1/payments/ and /v1/payments/internal: every charge of the account and mode, whatever made it, in the
 * list view, newest first, at most `limit` (default 100, max 1000), older ones with `created_before`.
 */
import { chargeView } from '../../shared/charges/charge.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { listPaymentCharges, parsePaymentListQuery } from '../../shared/payments/list-query.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ query, scope }) => {
  const charges = await listPaymentCharges(deps, scope, parsePaymentListQuery(query));
  return { status: 200, body: charges.map(chargeView) };
});
