/**
 * The failed-renewal notice (docs/design.md#customer-portal): when a renewal is declined and will be
 * tried again, the customer is e-mailed what could not be charged, when it is tried next, and a
 * link to their portal, valid 7 days from the failure, to replace the card; once per failure (the
 * event's id), in the account's language, HTML and text. The last failure (the subscription then
 * ends) sends none: the cancellation notice says it.
 */
import { merchantName } from '../accounts/account.ts';
import { getAccount } from '../accounts/repository.ts';
import { formatAmount } from '../core/money/amount.ts';
import { currencyOf } from '../core/money/fields.ts';
import { findCustomer } from '../customers/repository.ts';
import type { Deps } from '../db/deps.ts';
import { mailLanguage } from '../mail/layout.ts';
import { sendOnce } from '../mail/once.ts';
import type { Mailer } from '../mail/send.ts';
import type { subscriptionPaymentFailed } from '../subscriptions/events.ts';
import { getSubscription } from '../subscriptions/repository.ts';
import { renewalFailedMail } from './mail.ts';
import { createPortal, noticePortalLifetimeMs, type PortalKeys } from './service.ts';

type PaymentFailed = ReturnType<typeof subscriptionPaymentFailed.read>;

export async function sendRenewalFailedNotice(
  deps: Deps & { mailer: Mailer; keys: PortalKeys; baseUrl: string },
  detail: PaymentFailed,
): Promise<void> {
  const { object, next_retry_at: nextRetryAt, decline_reason: declineReason } = detail.data;
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
  // The link's 7 days count from the failure, on the billing run's clock (the event's time), as
  // the next retry does: a run at a simulated time (`billing run --now`) sends a notice whose dates
  // agree. Never from before now, so that no link is born expired.
  const eventAt = Date.parse(detail.created_at);
  const failedAt = Math.max(Number.isNaN(eventAt) ? 0 : eventAt, deps.clock().getTime());
  const onRunClock = { ...deps, clock: () => new Date(failedAt) };
  // A second delivery makes a link nobody receives (sendOnce then sends nothing); it expires unused.
  const portal = await createPortal(
    onRunClock,
    deps.keys,
    deps.baseUrl,
    scope,
    customer.id,
    noticePortalLifetimeMs,
  );
  const mail = renewalFailedMail({
    language: mailLanguage(account.language),
    merchant: { name: merchantName(account), logoUrl: account.logo ?? null },
    customerName: customer.first_name,
    planName: plan.name,
    amount: formatAmount(plan.amount * subscription.quantity, currencyOf(plan)),
    currency: plan.currency,
    nextRetryAt,
    portalUrl: portal.url,
    linkExpiresAt: portal.expires_at,
    // A renewal only the cardholder can let through: the portal's card page (Stripe's) asks them.
    needsConfirmation: declineReason === 'authentication_required',
  });
  await sendOnce(deps, deps.mailer, { eventId: detail.id, to: customer.email, mail, owner: scope });
}
