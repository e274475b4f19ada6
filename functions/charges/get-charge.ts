/**
 * GET /v1/charges/{charge_id}/: one charge in the list view, saying what it pays for and what
 * was refunded of it; an absent one is 404 `{"detail": "Not found."}`, as an absent refund is.
 */
import { chargeView } from '../../shared/charges/charge.ts';
import { requireCharge } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => {
  const charge = await requireCharge(deps, scope, params.charge_id ?? '');
  return { status: 200, body: chargeView(charge) };
});
