/**
 * DELETE /v1/plans/{id}/: removes the plan for good and publishes `plan.deleted`, which cancels its
 * active subscriptions and tells their customers. The event is stored in the same transaction as
 * the deletion, then sent on the bus.
 */
import { makeDeps } from '../../shared/deps.ts';
import { eventPublisher, newEvent, sendCommitted } from '../../shared/events/publish.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { envelope } from '../../shared/http/errors.ts';
import { planDeletedEvent } from '../../shared/plans/events.ts';
import { planIdParam } from '../../shared/plans/path.ts';
import { deletePlan, getPlanWithAccount } from '../../shared/plans/repository.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();
const events = eventPublisher();

export const handler = endpoint(async ({ params, account, mode, lang }) => {
  const scope = { developerId: account.developerId, mode };
  const { plan, account: owner } = await getPlanWithAccount(deps, scope, planIdParam(params.id));
  const detail = newEvent(planDeletedEvent(plan, owner, baseUrl), deps.clock());
  await deletePlan(deps, plan, detail);
  await sendCommitted(events, detail);
  return { status: 200, body: envelope(200, 'plan_deleted', lang, { type: 'success' }) };
});
