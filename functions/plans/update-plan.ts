/**
 * PUT /v1/plans/{id}/: changes name, description, image, trial days or `active`. The price,
 * interval and currency never change (400); a request that changes nothing answers type info.
 */

import { envelope } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { s3MediaStore } from '../../shared/media/store.ts';
import { planMessages } from '../../shared/plans/messages.ts';
import { editPlan } from '../../shared/plans/service.ts';

const deps = { ...makeDeps(), media: s3MediaStore() };

export const handler = endpoint(async ({ body, params, scope, lang }) => {
  const { planId, changed } = await editPlan(deps, scope, params.id, body);
  const [message, type] = changed
    ? ([planMessages.plan_updated, 'success'] as const)
    : ([planMessages.plan_unchanged, 'info'] as const);
  return { status: 200, body: envelope(200, message, lang, { type, data: planId }) };
});
