/** POST /v1/plans/: creates a plan; 201 with `data.id`, its key. */

import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { imageField, storedImageOf } from '../../shared/media/images.ts';
import { s3MediaStore, saveImage } from '../../shared/media/store.ts';
import { planMessages } from '../../shared/plans/messages.ts';
import { newPlan } from '../../shared/plans/plan.ts';
import { createPlan } from '../../shared/plans/repository.ts';
import { CreatePlanSchema } from '../../shared/plans/schemas.ts';

const deps = makeDeps();
const media = s3MediaStore();

export const handler = endpoint(async ({ body, scope, lang }) => {
  const input = validate(CreatePlanSchema, body);
  const image = input.image === undefined ? undefined : imageField(input.image, 'image');
  const plan = newPlan(input, {
    ...scope,
    now: deps.clock(),
    image: image ? storedImageOf(image) : null,
  });
  if (image) await saveImage(media, image);
  await createPlan(deps, plan);
  return {
    status: 201,
    body: envelope(201, planMessages.plan_created, lang, { type: 'success', data: { id: plan.id } }),
  };
});
