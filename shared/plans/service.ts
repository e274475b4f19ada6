/** Plan operations that span storage, media and events, from the request's body on. */
import { assertModeFlags, type Scope } from '../core/account.ts';
import { Invalid, NotFound } from '../core/errors.ts';
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import { imageField, storedImageOf } from '../media/images.ts';
import { type MediaStore, saveImage } from '../media/store.ts';
import { planDeletedEvent } from './events.ts';
import { planMessages } from './messages.ts';
import { planIdParam } from './path.ts';
import { effectiveChanges, newPlan, type Plan, type PlanChanges } from './plan.ts';
import { createPlan, deletePlan, getPlan, getPlanWithAccount, updatePlan } from './repository.ts';
import { CreatePlanSchema, immutablePlanFields, UpdatePlanSchema } from './schemas.ts';

/**
 * Creates a plan from a request's body (POST /v1/plans/ and the dashboard's form both call it): the
 * create schema decides what is valid, then the image, if any, is stored, then the plan.
 */
export async function addPlan(
  deps: Deps & { media: MediaStore },
  scope: Scope,
  body: unknown,
): Promise<Plan> {
  const input = validate(CreatePlanSchema, body);
  const image = input.image === undefined ? undefined : imageField(input.image, 'image');
  const plan = newPlan(input, { ...scope, now: deps.clock(), image: image ? storedImageOf(image) : null });
  if (image) await saveImage(deps.media, image);
  await createPlan(deps, plan);
  return plan;
}

/**
 * Changes a plan from a PUT's body (PUT /v1/plans/{id}/, `rawId` its path's id). The price, interval
 * and currency never change: a body naming one is 400 before the schema, which then decides what is
 * valid (no body changes nothing; a body that is not an object, JSON null included, is 400). A new
 * image is stored only once something will be written. The plan's id, and whether anything changed.
 */
export async function editPlan(
  deps: Deps & { media: MediaStore },
  scope: Scope,
  rawId: string | undefined,
  body: unknown,
): Promise<{ planId: string; changed: boolean }> {
  const fields = body && typeof body === 'object' ? Object.keys(body) : [];
  const immutable = immutablePlanFields.filter((field) => fields.includes(field));
  if (immutable.length) {
    throw new Invalid(planMessages.plan_immutable, { params: { fields: immutable.join(', ') } });
  }
  const input = validate(UpdatePlanSchema, body);
  assertModeFlags(input, scope.mode);
  const planId = planIdParam(rawId);
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
    image ? () => saveImage(deps.media, image) : undefined,
  );
  return { planId, changed };
}

/**
 * Changes a plan as PUT /v1/plans/{id}/ does (the dashboard's archive and restore call it too): only
 * what differs from the stored plan is written, so a change to what it already is writes nothing.
 * `beforeWrite` runs only once something will be written (the API stores a new image there: a
 * missing plan or no change stores none). Answers whether anything changed; NotFound when absent.
 */
export async function changePlan(
  deps: Deps,
  scope: Scope,
  planId: string,
  changes: PlanChanges,
  beforeWrite?: () => Promise<void>,
): Promise<boolean> {
  const plan = await getPlan(deps, scope, planId);
  if (!plan) throw new NotFound(planMessages.plan_not_found);
  const effective = effectiveChanges(plan, changes);
  if (Object.keys(effective).length === 0) return false;
  await beforeWrite?.();
  await updatePlan(deps, plan, effective, deps.clock());
  return true;
}

/**
 * Removes a plan for good. `plan.deleted` (which cancels its active subscriptions and tells their
 * customers) is stored in the deletion's transaction; the table's stream takes it to the bus.
 */
export async function removePlan(
  deps: Deps & { baseUrl: string },
  scope: Scope,
  planId: string,
): Promise<void> {
  const { plan, account: owner } = await getPlanWithAccount(deps, scope, planId);
  const detail = planDeletedEvent(plan, owner, deps.baseUrl, deps.clock());
  await deletePlan(deps, plan, detail);
}
