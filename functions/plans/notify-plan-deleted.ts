/**
 * Target of `plan.deleted`: confirms the deletion to the account's owner by e-mail, with how many
 * active subscriptions the deletion cancels. Everything it says comes from the event's detail.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { sesMailer } from '../../shared/mail/send.ts';
import { planDeleted } from '../../shared/plans/events.ts';

const mailer = sesMailer();

export const handler = async (event: EventBridgeEvent<'plan.deleted', unknown>): Promise<void> => {
  const detail = planDeleted.read(event.detail);
  const { object: plan, account } = detail.data;
  if (!account.email) return; // the account is gone: nobody to tell
  const { information: info } = plan;
  const mode = detail.test ? 'test' : 'live';
  await mailer.send({
    to: account.email,
    subject: `Your cobro plan "${info.name}" was deleted`,
    text: [
      `Hello ${account.name},`,
      '',
      `The ${mode} plan "${info.name}" (${plan.key}), ${info.amount} ${info.currency} every ${info.interval_count} ${info.interval}(s), was deleted at ${detail.created_at}.`,
      info.count === 1
        ? 'Its 1 active subscription is canceled and its customer is told by e-mail.'
        : `Its ${info.count} active subscriptions are canceled and their customers are told by e-mail.`,
      '',
      'A deleted plan cannot be restored. To stop new sign-ups but keep a plan, archive it instead (PUT with "active": false).',
    ].join('\n'),
  });
};
