/**
 * Target of `api_key.rotated`: tells the account's owner by e-mail, in the account's language, that
 * a key was replaced. A second delivery of the same event sends nothing.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { merchantName } from '../../shared/accounts/account.ts';
import { apiKeyRotated } from '../../shared/accounts/events.ts';
import { apiKeyRotatedMail } from '../../shared/accounts/mail.ts';
import { getAccount } from '../../shared/accounts/repository.ts';
import { observed } from '../../shared/core/invocation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { scopeOfEvent } from '../../shared/events/event.ts';
import { mailLanguage } from '../../shared/mail/layout.ts';
import { sendOnce } from '../../shared/mail/once.ts';
import { sesMailer } from '../../shared/mail/send.ts';

const deps = makeDeps();
const mailer = sesMailer();

export const handler = observed(
  async (event: EventBridgeEvent<'api_key.rotated', unknown>): Promise<void> => {
    const detail = apiKeyRotated.read(event.detail);
    const { developer_id: developerId, data } = detail;
    const account = await getAccount(deps, developerId);
    if (!account) return; // the account is gone: nobody to tell
    const mail = apiKeyRotatedMail({
      language: mailLanguage(account.language), // unset (accounts made before the field existed): English
      merchant: { name: merchantName(account), logoUrl: account.logo ?? null },
      ownerName: account.name,
      developerId,
      keyType: data.type,
      keyEnding: data.key.slice(-4),
      rotatedAt: data.created_at,
    });
    await sendOnce(deps, mailer, {
      eventId: detail.id,
      to: account.email,
      mail,
      owner: scopeOfEvent(detail),
    });
  },
);
