/**
 * Target of `subscription.activated`, `subscription.canceled`, `subscription.payment_failed` and
 * `subscription.updated`: the customer's receipt (with a link to their customer portal, made here
 * and open 7 days), the notice that the subscription ended and why (the plan-deletion notice when
 * its plan was deleted), the failed-renewal notice with a link to the customer portal
 * (shared/portal/notice.ts), or, for a change, the notice that shared/subscriptions/mail-of-update.ts
 * picks (a new plan or quantity and what it charged, an end at the period's end set or undone; none
 * for metadata alone), in the account's language with the merchant's name and logo. A second delivery
 * sends nothing.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { merchantName } from '../../shared/accounts/account.ts';
import { getAccount } from '../../shared/accounts/repository.ts';
import { observed } from '../../shared/core/invocation.ts';
import { findCustomer } from '../../shared/customers/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { mailLanguage } from '../../shared/mail/layout.ts';
import { alreadySent, sendOnce } from '../../shared/mail/once.ts';
import { sesMailer } from '../../shared/mail/send.ts';
import { sendRenewalFailedNotice } from '../../shared/portal/notice.ts';
import { createPortal, noticePortalLifetimeMs, stagePortalKeys } from '../../shared/portal/service.ts';
import {
  subscriptionActivated,
  subscriptionCanceled,
  subscriptionPaymentFailed,
  subscriptionUpdated,
} from '../../shared/subscriptions/events.ts';
import {
  planDiscontinuedMail,
  subscriptionActivatedMail,
  subscriptionCanceledMail,
} from '../../shared/subscriptions/mail.ts';
import { changedItem, mailOfUpdate, updateNotice } from '../../shared/subscriptions/mail-of-update.ts';
import { getSubscription } from '../../shared/subscriptions/repository.ts';

const deps = makeDeps();
const mailer = sesMailer();
const portal = { ...deps, mailer, keys: stagePortalKeys(), baseUrl: publicBaseUrl() };

export const handler = observed(async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  if (event['detail-type'] === subscriptionPaymentFailed.type) {
    await sendRenewalFailedNotice(portal, subscriptionPaymentFailed.read(event.detail));
    return;
  }
  const updatedDetail =
    event['detail-type'] === subscriptionUpdated.type ? subscriptionUpdated.read(event.detail) : undefined;
  const update = updatedDetail && mailOfUpdate(updatedDetail.data);
  if (updatedDetail && !update) return; // only its metadata, or a pending change: nothing to tell
  const activated = event['detail-type'] === subscriptionActivated.type;
  const canceledDetail = activated || updatedDetail ? undefined : subscriptionCanceled.read(event.detail);
  const detail = updatedDetail ?? canceledDetail ?? subscriptionActivated.read(event.detail);
  const { object } = detail.data;
  const scope = {
    developerId: detail.developer_id,
    mode: detail.test ? ('test' as const) : ('live' as const),
  };
  if (!object.customer_id) return; // nobody paid for it: nobody to tell
  const [account, customer, subscription] = await Promise.all([
    getAccount(deps, detail.developer_id),
    findCustomer(deps, scope, object.customer_id),
    getSubscription(deps, scope, object.subscription_id),
  ]);
  if (!account || !customer || !subscription) return; // gone since: nobody to tell
  const common = {
    language: mailLanguage(account.language),
    merchant: { name: merchantName(account), logoUrl: account.logo ?? null },
    customerName: customer.first_name,
    planName: subscription.plan.name,
  };
  if (update) {
    const mail = await updateNotice(deps, scope, update, subscription, object, common);
    if (mail) await sendOnce(deps, mailer, { eventId: detail.id, to: customer.email, mail, owner: scope });
    return;
  }
  const canceledAt = subscription.canceled_at ?? detail.created_at;
  const reason = canceledDetail?.data.reason;
  if (activated) {
    // A second delivery sends nothing: it makes no portal link either.
    if (await alreadySent(deps, detail.id, customer.email)) return;
    // The subscriber manages it from their portal, as the failed-renewal notice's link does: a link
    // made now for this customer, open as long as that notice's.
    const link = await createPortal(
      deps,
      portal.keys,
      portal.baseUrl,
      scope,
      customer.id,
      noticePortalLifetimeMs,
    );
    // What was subscribed to when it started: a change made since has its own notice.
    const item = await changedItem(deps, scope, subscription, object);
    if (!item) return; // its plan is gone since: nothing true to say of it
    const mail = subscriptionActivatedMail({
      ...common,
      subscriptionId: subscription.id,
      item,
      nextBillingAt: subscription.next_action_at,
      trialEndsAt: subscription.trial_end,
      portalUrl: link.url,
      linkExpiresAt: link.expires_at,
    });
    await sendOnce(deps, mailer, { eventId: detail.id, to: customer.email, mail, owner: scope });
    return;
  }
  const mail =
    reason === 'plan_deleted'
      ? planDiscontinuedMail({ ...common, canceledAt })
      : subscriptionCanceledMail({
          ...common,
          subscriptionId: subscription.id,
          canceledAt,
          // Why it ended, as the event says: the merchant's cancel, or dunning that ran out.
          reason: reason ?? null,
        });
  await sendOnce(deps, mailer, { eventId: detail.id, to: customer.email, mail, owner: scope });
});
