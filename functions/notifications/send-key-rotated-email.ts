/** Target of `api_key.rotated`: tells the account's owner by e-mail that a key was replaced. */
import type { EventBridgeEvent } from 'aws-lambda';
import { apiKeyRotated } from '../../shared/accounts/events.ts';
import { getAccount } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { sesMailer } from '../../shared/mail/send.ts';

const deps = makeDeps();
const mailer = sesMailer();

export const handler = async (event: EventBridgeEvent<'api_key.rotated', unknown>): Promise<void> => {
  const { developer_id: developerId, data } = apiKeyRotated.read(event.detail);
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
