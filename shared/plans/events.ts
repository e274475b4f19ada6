/** Events about plans, with what their consumers need in the detail (no table read on their side). */
import * as v from 'valibot';
import type { Account } from '../accounts/repository.ts';
import { scopeOf } from '../core/account.ts';
import { defineEvent, type EventDetail } from '../events/event.ts';
import { type Plan, planView } from './plan.ts';
import { PlanViewSchema } from './schemas.ts';

/**
 * A plan was deleted: the plan as it was, in the API's plan shape (webhooks send it as
 * `data.object`), and who owns it (the sender of customer e-mails and the merchant to notify).
 */
export const planDeleted = defineEvent(
  'plan.deleted',
  v.object({
    object: PlanViewSchema,
    account: v.object({
      developer_id: v.number(),
      name: v.string(),
      email: v.string(),
      company_name: v.string(),
    }),
  }),
);
export type PlanDeletedData = v.InferOutput<typeof planDeleted.data>;

export function planDeletedEvent(
  plan: Plan,
  owner: Account | undefined,
  baseUrl: string,
  now: Date,
): EventDetail<PlanDeletedData> {
  const object = planView(plan, owner, baseUrl);
  return planDeleted.of(
    scopeOf(plan),
    {
      object,
      account: {
        developer_id: plan.developer_id,
        name: owner?.name ?? '',
        email: owner?.email ?? '',
        company_name: object.information.company_name,
      },
    },
    now,
  );
}
