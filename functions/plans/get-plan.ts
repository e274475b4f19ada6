/** GET /v1/plans/{id}/: one plan of the account, in the request's mode; 404 otherwise. */
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { planIdParam } from '../../shared/plans/path.ts';
import { planView } from '../../shared/plans/plan.ts';
import { getPlanWithAccount } from '../../shared/plans/repository.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ params, scope }) => {
  const { plan, account: owner } = await getPlanWithAccount(deps, scope, planIdParam(params.id));
  return { status: 200, body: planView(plan, owner, baseUrl) };
});
