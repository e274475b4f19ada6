/**
 * Target of `subscription.canceled`: tells the customer, in the account's language, with the
 * merchant's name and logo, that the subscription ended. A second delivery sends nothing (D13).
 * A subscription without a customer (none has paid for it) has nobody to tell.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { merchantName } from '../../shared/accounts/account.ts';
import { getAccount } from '../../shared/accounts/repository.ts';
import { findCustomer } from '../../shared/customers/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { sendOnce } from '../../shared/mail/once.ts';
import { sesMailer } from '../../shared/mail/send.ts';
import { mailLanguage, mailTemplates } from '../../shared/mail/templates.ts';
import { subscriptionCanceled } from '../../shared/subscriptions/events.ts';
import { getSubscription } from '../../shared/subscriptions/repository.ts';

const deps = makeDeps();
const mailer = sesMailer();

export const handler = async (event: EventBridgeEvent<'subscription.canceled', unknown>): Promise<void> => {
  const detail = subscriptionCanceled.read(event.detail);
  const { object } = detail.data;
  const scope = {
    developerId: detail.developer_id,
    mode: detail.test ? ('test' as const) : ('live' as const),
  };
  if (!object.customer_id) return;
  const [account, customer, subscription] = await Promise.all([
    getAccount(deps, detail.developer_id),
    findCustomer(deps, scope, object.customer_id),
    getSubscription(deps, scope, object.subscription_id),
  ]);
  if (!account || !customer || !subscription) return; // gone since: nobody to tell
  const mail = mailTemplates.subscriptionCanceled({
    language: mailLanguage(account.language),
    merchant: { name: merchantName(account), logoUrl: account.logo ?? null },
    customerName: customer.first_name,
    subscriptionId: subscription.id,
    planName: subscription.plan.name,
    canceledAt: subscription.canceled_at ?? detail.created_at,
  });
  await sendOnce(deps, mailer, { eventId: detail.id, to: customer.email, mail, owner: scope });
};
