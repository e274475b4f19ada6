/**
 * PUT /v1/plans/{id}/: changes name, description, image, trial days or `active`. The price,
 * interval and currency never change (400); a request that changes nothing answers type info.
 */

import { assertModeFlags } from '../../shared/core/account.ts';
import { envelope, Invalid } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { imageField, storedImageOf } from '../../shared/media/images.ts';
import { s3MediaStore, saveImage } from '../../shared/media/store.ts';
import { planMessages } from '../../shared/plans/messages.ts';
import { planIdParam } from '../../shared/plans/path.ts';
import { immutablePlanFields, UpdatePlanSchema } from '../../shared/plans/schemas.ts';
import { changePlan } from '../../shared/plans/service.ts';

const deps = makeDeps();
const media = s3MediaStore();

export const handler = endpoint(async ({ body, params, scope, mode, lang }) => {
  const fields = body && typeof body === 'object' ? Object.keys(body) : [];
  const immutable = immutablePlanFields.filter((field) => fields.includes(field));
  if (immutable.length)
    throw new Invalid(planMessages.plan_immutable, { params: { fields: immutable.join(', ') } });
  // No body changes nothing; a body that is not an object (JSON null included) is 400.
  const input = validate(UpdatePlanSchema, body);
  assertModeFlags(input, mode);
  const planId = planIdParam(params.id);
  const image = typeof input.image === 'string' ? imageField(input.image, 'image') : input.image;
  const changed = await changePlan(
    deps,
    scope,
    planId,
    {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.trial_period_days !== undefined ? { trial_period_days: input.trial_period_days } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(image !== undefined ? { image: image === null ? null : storedImageOf(image) } : {}),
    },
    image ? () => saveImage(media, image) : undefined,
  );
  if (!changed) {
    return {
      status: 200,
      body: envelope(200, planMessages.plan_unchanged, lang, { type: 'info', data: planId }),
    };
  }
  return {
    status: 200,
    body: envelope(200, planMessages.plan_updated, lang, { type: 'success', data: planId }),
  };
});
