/** Target of `api_key.rotated`: tells the account's owner by e-mail that a key was replaced. */
import type { EventBridgeEvent } from 'aws-lambda';
import { getAccount } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/deps.ts';
import type { EventDetail } from '../../shared/events/publish.ts';
import { sesMailer } from '../../shared/mail/send.ts';

const deps = makeDeps();
const mailer = sesMailer();

type KeyRotated = EventDetail<{ type: 'test' | 'live'; key: string; created_at: string }>;

export const handler = async (event: EventBridgeEvent<'api_key.rotated', KeyRotated>): Promise<void> => {
  const { developer_id: developerId, data } = event.detail;
  const account = await getAccount(deps, developerId);
  if (!account) return; // the account is gone: nobody to tell
  await mailer.send({
    to: account.email,
    subject: `Your cobro ${data.type} API key was rotated`,
    text: [
      `Hello ${account.name},`,
      '',
      `The ${data.type} API key of your cobro account ${developerId} was replaced at ${data.created_at}.`,
      `The new key ends in ${data.key.slice(-4)}. The previous key stops working within 60 seconds.`,
      '',
      'If you did not do this, rotate both keys now and review who has access to your account.',
    ].join('\n'),
  });
};
