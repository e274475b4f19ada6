/**
 * GET /v1/charges/{charge_id}/: one charge in the list view (D9), saying what it pays for and what
 * was refunded of it (D15); an absent one is the error table's "Refund or charge 404".
 */
import { chargeView } from '../../shared/charges/charge.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { RawError } from '../../shared/http/errors.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => {
  const charge = await getCharge(deps, scope, params.charge_id ?? '');
  if (!charge) throw new RawError(404, { detail: 'Not found.' });
  return { status: 200, body: chargeView(charge) };
});
