/**
 * Target of `plan.deleted`: confirms the deletion to the account's owner by e-mail, with how many
 * active subscriptions the deletion cancels. What it says comes from the event's detail; the
 * account is read only for the language of its e-mails. A second delivery sends nothing.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { getAccount } from '../../shared/accounts/repository.ts';
import { observed } from '../../shared/core/invocation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { scopeOfEvent } from '../../shared/events/event.ts';
import { mailLanguage } from '../../shared/mail/layout.ts';
import { sendOnce } from '../../shared/mail/once.ts';
import { sesMailer } from '../../shared/mail/send.ts';
import { planDeleted } from '../../shared/plans/events.ts';
import { planDeletedMail } from '../../shared/plans/mail.ts';

const deps = makeDeps();
const mailer = sesMailer();

export const handler = observed(async (event: EventBridgeEvent<'plan.deleted', unknown>): Promise<void> => {
  const detail = planDeleted.read(event.detail);
  const { object: plan, account } = detail.data;
  if (!account.email) return; // the account is gone: nobody to tell
  const { information: info } = plan;
  const stored = await getAccount(deps, account.developer_id);
  const owner = scopeOfEvent(detail);
  const mail = planDeletedMail({
    language: mailLanguage(stored?.language), // unset (accounts made before the field existed): English
    merchant: { name: account.company_name || account.name, logoUrl: info.image_dev },
    ownerName: account.name,
    mode: owner.mode,
    plan: {
      id: plan.key,
      name: info.name,
      amount: info.amount,
      currency: info.currency,
      interval: info.interval,
      intervalCount: info.interval_count,
    },
    activeSubscriptions: info.count,
    deletedAt: detail.created_at,
  });
  await sendOnce(deps, mailer, {
    eventId: detail.id,
    to: account.email,
    mail,
    owner,
  });
});
