/** POST /v1/plans/: creates a plan; 201 with `data.id`, its key. */

import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { s3MediaStore } from '../../shared/media/store.ts';
import { planMessages } from '../../shared/plans/messages.ts';
import { addPlan } from '../../shared/plans/service.ts';

const deps = { ...makeDeps(), media: s3MediaStore() };

export const handler = endpoint(async ({ body, scope, lang }) => {
  const plan = await addPlan(deps, scope, body);
  return {
    status: 201,
    body: envelope(201, planMessages.plan_created, lang, { type: 'success', data: { id: plan.id } }),
  };
});
