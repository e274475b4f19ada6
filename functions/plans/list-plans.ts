/** GET /v1/plans/: the account's plans in the request's mode, newest first, in Envelope A. */
import { getAccount } from '../../shared/accounts/repository.ts';
import { numberedPage } from '../../shared/core/pagination.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { parsePlanListQuery } from '../../shared/plans/list-query.ts';
import { planView } from '../../shared/plans/plan.ts';
import { listPlans } from '../../shared/plans/repository.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ query, scope }) => {
  const listQuery = parsePlanListQuery(query);
  const [{ count, plans }, owner] = await Promise.all([
    listPlans(deps, scope, listQuery),
    getAccount(deps, scope.developerId),
  ]);
  return {
    status: 200,
    body: numberedPage(
      count,
      listQuery.page,
      plans.map((plan) => planView(plan, owner, baseUrl)),
    ),
  };
});
