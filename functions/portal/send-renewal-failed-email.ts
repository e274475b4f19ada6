/**
 * Target of `subscription.payment_failed`: when a renewal is declined and will be tried again, the
 * customer gets the failed-renewal notice (account's language, HTML and text) with a link to their
 * portal, valid 7 days, to replace the card. Once per failure: a second delivery of the event sends
 * nothing. The last failure (the subscription then ends) sends none: the cancellation notice says it.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { merchantName } from '../../shared/accounts/account.ts';
import { getAccount } from '../../shared/accounts/repository.ts';
import { observed } from '../../shared/core/invocation.ts';
import { formatAmount } from '../../shared/core/money/amount.ts';
import { currencyOf } from '../../shared/core/money/fields.ts';
import { findCustomer } from '../../shared/customers/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { sendOnce } from '../../shared/mail/once.ts';
import { sesMailer } from '../../shared/mail/send.ts';
import { mailLanguage, mailTemplates } from '../../shared/mail/templates.ts';
import { createPortal, noticePortalLifetimeMs, stagePortalKeys } from '../../shared/portal/service.ts';
import { subscriptionPaymentFailed } from '../../shared/subscriptions/events.ts';
import { getSubscription } from '../../shared/subscriptions/repository.ts';

const deps = makeDeps();
const mailer = sesMailer();
const keys = stagePortalKeys();
const baseUrl = publicBaseUrl();

export const handler = observed(async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const detail = subscriptionPaymentFailed.read(event.detail);
  const { object, next_retry_at: nextRetryAt } = detail.data;
  if (!nextRetryAt || !object.customer_id) return; // the subscription ended, or nobody to tell
  const scope = {
    developerId: detail.developer_id,
    mode: detail.test ? ('test' as const) : ('live' as const),
  };
  const [account, customer, subscription] = await Promise.all([
    getAccount(deps, detail.developer_id),
    findCustomer(deps, scope, object.customer_id),
    getSubscription(deps, scope, object.subscription_id),
  ]);
  if (!account || !customer || !subscription) return; // gone since: nobody to tell
  const { plan } = subscription;
  // A second delivery makes a link nobody receives (sendOnce then sends nothing); it expires unused.
  const portal = await createPortal(deps, keys, baseUrl, scope, customer.id, noticePortalLifetimeMs);
  const mail = mailTemplates.renewalFailed({
    language: mailLanguage(account.language),
    merchant: { name: merchantName(account), logoUrl: account.logo ?? null },
    customerName: customer.first_name,
    planName: plan.name,
    amount: formatAmount(plan.amount * subscription.quantity, currencyOf(plan)),
    currency: plan.currency,
    nextRetryAt,
    portalUrl: portal.url,
    linkExpiresAt: portal.expires_at,
  });
  await sendOnce(deps, mailer, { eventId: detail.id, to: customer.email, mail, owner: scope });
});
