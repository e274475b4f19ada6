/** Events about plans, with what their consumers need in the detail (no table read on their side). */
import type { Account } from '../accounts/repository.ts';
import type { DomainEvent } from '../events/publish.ts';
import { type Plan, type PlanView, planView } from './plan.ts';

export interface PlanDeletedData {
  /** The plan as it was, in the interface's shape (D11 webhooks send `data.object`). */
  object: PlanView;
  /** Who owns it: the sender of customer e-mails and the merchant to notify. */
  account: { developer_id: number; name: string; email: string; company_name: string };
}

export function planDeletedEvent(
  plan: Plan,
  owner: Account | undefined,
  baseUrl: string,
): DomainEvent<PlanDeletedData> {
  const object = planView(plan, owner, baseUrl);
  return {
    type: 'plan.deleted',
    developerId: plan.developer_id,
    test: plan.mode === 'test',
    data: {
      object,
      account: {
        developer_id: plan.developer_id,
        name: owner?.name ?? '',
        email: owner?.email ?? '',
        company_name: object.information.company_name,
      },
    },
  };
}
