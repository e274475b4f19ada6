/**
 * DELETE /v1/plans/{id}/: removes the plan for good and publishes `plan.deleted`, which cancels its
 * active subscriptions and tells their customers.
 */
import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { planMessages } from '../../shared/plans/messages.ts';
import { planIdParam } from '../../shared/plans/path.ts';
import { removePlan } from '../../shared/plans/service.ts';

const deps = { ...makeDeps(), baseUrl: publicBaseUrl() };

export const handler = endpoint(async ({ params, scope, lang }) => {
  await removePlan(deps, scope, planIdParam(params.id));
  return { status: 200, body: envelope(200, planMessages.plan_deleted, lang, { type: 'success' }) };
});
