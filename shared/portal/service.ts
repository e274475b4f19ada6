/**
 * The customer portal (docs/design.md#customer-portal): a hosted page where one customer of an
 * account sees their subscriptions and charges, cancels a subscription and replaces the card one is
 * charged to. The merchant asks for a link (1 hour), or the failed-renewal notice carries one (7
 * days); the token is the only key to the page.
 */

import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { merchantName, statementDescriptor } from '../accounts/account.ts';
import { getAccount } from '../accounts/repository.ts';
import { getConnection } from '../acquirer/connection.ts';
import type { Charge } from '../charges/charge.ts';
import { getCharge, listCustomerCharges } from '../charges/repository.ts';
import { sessionEntity } from '../checkout/repository.ts';
import { newCardSession, pageUrl } from '../checkout/session.ts';
import type { Scope } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import { Conflict } from '../core/errors.ts';
import { isToken } from '../core/ids.ts';
import { type Secret, stageSecret, type TokenKeys, tokenKeys } from '../core/secrets.ts';
import type { Customer } from '../customers/customer.ts';
import { getCustomer } from '../customers/repository.ts';
import type { Deps } from '../db/deps.ts';
import { receiptUrl } from '../receipts/receipt.ts';
import { issueReceiptLink } from '../receipts/repository.ts';
import { getSubscription, listCustomerSubscriptions } from '../subscriptions/repository.ts';
import { cancelSubscription } from '../subscriptions/service.ts';
import { type Subscription, subscriptionView } from '../subscriptions/subscription.ts';
import { setEndAtPeriodEnd } from '../subscriptions/update.ts';
import { cardReplaceable } from './card.ts';
import {
  askCancelConfirmation,
  findPortalLink,
  issuePortalLink,
  type PortalLink,
  portalTokenLength,
  spendCancelConfirmation,
} from './repository.ts';
import { sealPortalToken } from './return.ts';

/** How long a link the merchant asks for opens the portal. */
export const portalLifetimeMs = 3_600_000;
/** How long the link in a failed-renewal notice opens it: time enough to read the e-mail and act. */
export const noticePortalLifetimeMs = 7 * 86_400_000;
/** How many of the customer's charges the page lists: their newest. */
export const portalCharges = 50;
/**
 * How many of the customer's subscriptions the page reads, newest first, before leaving out the
 * pending ones (made for them, never paid): far more than a customer keeps.
 */
export const portalSubscriptions = 100;

/** The values of the secret that keys portal tokens: one to key new links with, all a link may be under. */
export type PortalKeys = TokenKeys;

/** The stage's fingerprint secret, as portal tokens use it. */
export const stagePortalKeys = (secret: Secret = stageSecret(envNames.fingerprintSecret)): PortalKeys =>
  tokenKeys(secret);

/** The portal page's URL for a token. */
export const portalUrl = (baseUrl: string, token: string) => `${baseUrl}/portal/${token}`;

/** A new portal link for one customer of the caller's account and mode (404 when it has none such). */
export async function createPortal(
  deps: Deps,
  keys: PortalKeys,
  baseUrl: string,
  scope: Scope,
  customerId: string,
  lifetimeMs = portalLifetimeMs,
): Promise<{ url: string; expires_at: string }> {
  const customer = await getCustomer(deps, scope, customerId.toLowerCase());
  const { token, expiresAt } = await issuePortalLink(
    deps,
    await keys.sign(),
    { scope, customerId: customer.id },
    lifetimeMs,
  );
  return { url: portalUrl(baseUrl, token), expires_at: expiresAt.toISOString() };
}

/** What a portal page shows. */
export interface PortalContents {
  link: PortalLink;
  merchant: string;
  customer: Customer;
  subscriptions: Subscription[];
  charges: Charge[];
  /** A live page of a mode connected to the simulated acquirer (the local stack): it says no real money moves. */
  simulatedLive: boolean;
  /** When it was read: a subscription whose end has come is offered no Resume. */
  now: Date;
}

export type Opened =
  | { kind: 'unknown' }
  | { kind: 'expired' }
  | { kind: 'open'; link: PortalLink; scope: Scope };

/** The link a token opens, and whether it still does. */
export async function openPortal(deps: Deps, keys: PortalKeys, token: string): Promise<Opened> {
  // A malformed token is looked up all the same: the time taken tells nothing of the token.
  const link = await findPortalLink(deps, await keys.lookup(), token);
  if (!link || !isToken(token, portalTokenLength)) return { kind: 'unknown' };
  if (deps.clock().getTime() >= link.expires_at_ms) return { kind: 'expired' };
  return { kind: 'open', link, scope: { developerId: link.developer_id, mode: link.mode } };
}

/**
 * The customer's subscriptions (those started) and newest charges, for the page: their own records
 * only, read from the customer index, the customer and the account side by side (one round trip,
 * whatever the size of the account or of its other customers).
 */
export async function portalContents(deps: Deps, link: PortalLink, scope: Scope): Promise<PortalContents> {
  const [customer, account, charges, subscriptions, connection] = await Promise.all([
    getCustomer(deps, scope, link.customer_id),
    getAccount(deps, scope.developerId),
    listCustomerCharges(deps, scope, link.customer_id, { page: 1, pageSize: portalCharges }),
    listCustomerSubscriptions(deps, scope, link.customer_id, { page: 1, pageSize: portalSubscriptions }),
    scope.mode === 'live' ? getConnection(deps, scope.developerId, 'live') : undefined,
  ]);
  return {
    link,
    merchant: account ? merchantName(account) : '',
    customer,
    subscriptions: subscriptions.records.filter((subscription) => subscription.status !== 'pending'),
    charges: charges.records,
    simulatedLive: connection?.connector === 'simulated',
    now: deps.clock(),
  };
}

/** One of the portal customer's own subscriptions, or undefined (another's, or none). */
async function ownSubscription(deps: Deps, link: PortalLink, scope: Scope, id: string) {
  const subscription = /^sub_[A-Za-z0-9]+$/.test(id) ? await getSubscription(deps, scope, id) : undefined;
  return subscription?.customer_id === link.customer_id ? subscription : undefined;
}

export type PortalAction =
  | { kind: 'confirm_cancel'; subscription: Subscription; csrf: string }
  | { kind: 'canceled'; subscription: Subscription }
  | { kind: 'ending'; at: string }
  | { kind: 'resumed' }
  | { kind: 'already_canceled' }
  | { kind: 'ended' }
  | { kind: 'not_endable' }
  | { kind: 'form_expired' }
  | { kind: 'card_page'; url: string }
  | { kind: 'receipt'; url: string }
  | { kind: 'not_replaceable' }
  | { kind: 'no_subscription' }
  | { kind: 'no_charge' };

/**
 * The first step of a cancel: nothing is canceled yet; the customer is asked to confirm, with a
 * CSRF token of that confirmation's own (single use), on a page that says what cancelling does.
 */
export async function askCancel(
  deps: Deps,
  link: PortalLink,
  scope: Scope,
  id: string,
): Promise<PortalAction> {
  const subscription = await ownSubscription(deps, link, scope, id);
  if (!subscription) return { kind: 'no_subscription' };
  if (subscription.status === 'canceled') return { kind: 'already_canceled' };
  return {
    kind: 'confirm_cancel',
    subscription,
    csrf: await askCancelConfirmation(deps, link, subscription.id),
  };
}

/**
 * The confirmed cancel: the confirmation's token is spent (once: a second post of it, or one of
 * an older confirmation, changes nothing), then the same cancellation as the merchant's DELETE,
 * with the reason that the customer asked for it (which their cancellation notice says).
 */
export async function cancelFromPortal(
  deps: Deps,
  link: PortalLink,
  scope: Scope,
  id: string,
  csrf: string,
): Promise<PortalAction> {
  const subscription = await ownSubscription(deps, link, scope, id);
  if (!subscription) return { kind: 'no_subscription' };
  if (!(await spendCancelConfirmation(deps, link, subscription.id, csrf))) {
    // Spent already (a double submit) or never asked: the page says which, from what is stored now.
    const now = await getSubscription(deps, scope, subscription.id);
    return now?.status === 'canceled' ? { kind: 'already_canceled' } : { kind: 'form_expired' };
  }
  if (subscription.status === 'canceled') return { kind: 'already_canceled' };
  try {
    return {
      kind: 'canceled',
      subscription: await cancelSubscription(deps, scope, id, 'customer_requested'),
    };
  } catch (error) {
    if (error instanceof Conflict) return { kind: 'already_canceled' };
    throw error;
  }
}

/**
 * "Cancel at end of period", from the cancel's confirmation (decision D19): its token is spent as
 * "Cancel now"'s is (once), then the subscriptions area's own change sets `cancel_at_period_end`
 * (updateSubscription: `subscription.updated`, conditioned on the version read); the billing step
 * ends it at the period's (or trial's) end instead of charging. A past-due subscription cannot be
 * set to end (its period is unpaid): it can only be canceled now. A second post of the token, once
 * it is set, answers that it ends, as the first did.
 */
export async function endFromPortal(
  deps: Deps,
  link: PortalLink,
  scope: Scope,
  id: string,
  csrf: string,
): Promise<PortalAction> {
  const subscription = await ownSubscription(deps, link, scope, id);
  if (!subscription || subscription.status === 'pending') return { kind: 'no_subscription' };
  if (!(await spendCancelConfirmation(deps, link, subscription.id, csrf))) {
    const now = await getSubscription(deps, scope, subscription.id);
    const at = now && subscriptionView(now).cancel_at;
    if (at) return { kind: 'ending', at };
    return now?.status === 'canceled' ? { kind: 'already_canceled' } : { kind: 'form_expired' };
  }
  return setEnding(deps, scope, subscription, true);
}

/**
 * "Resume": undoes a cancel at the period's end while that end has not come (the page's own CSRF
 * token, as its other forms). Once it has come, or the subscription was canceled, there is nothing to
 * resume: the page says it has ended. One not set to end is left as it is.
 */
export async function resumeFromPortal(
  deps: Deps,
  link: PortalLink,
  scope: Scope,
  id: string,
): Promise<PortalAction> {
  const subscription = await ownSubscription(deps, link, scope, id);
  if (!subscription || subscription.status === 'pending') return { kind: 'no_subscription' };
  if (subscription.status === 'canceled') return { kind: 'ended' };
  if (!subscription.cancel_at_period_end) return { kind: 'resumed' };
  const at = subscriptionView(subscription).cancel_at;
  if (at && Date.parse(at) <= deps.clock().getTime()) return { kind: 'ended' };
  return setEnding(deps, scope, subscription, false);
}

/**
 * Sets or clears the cancel at the period's end through the subscriptions area's change (which asks
 * the acquirer nothing for it). A canceled subscription and a past-due one are refused, as the
 * change refuses them (409); one that became so after it was read is read again to say which.
 */
async function setEnding(
  deps: Deps,
  scope: Scope,
  subscription: Subscription,
  end: boolean,
): Promise<PortalAction> {
  const refused = (status: Subscription['status']): PortalAction =>
    status === 'canceled' ? { kind: end ? 'already_canceled' : 'ended' } : { kind: 'not_endable' };
  if (subscription.status === 'canceled' || subscription.status === 'past_due')
    return refused(subscription.status);
  try {
    const { subscription: after } = await setEndAtPeriodEnd(deps, scope, subscription.id, end);
    if (!end) return { kind: 'resumed' };
    const at = subscriptionView(after).cancel_at;
    return at ? { kind: 'ending', at } : refused(after.status);
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
    // Canceled or past due since it was read.
    const now = await getSubscription(deps, scope, subscription.id);
    return refused(now?.status ?? 'canceled');
  }
}

/**
 * The receipt of one of the customer's charges: a new receipt link for it (as a receipt e-mail
 * carries), made when asked for, so a page view writes nothing and no receipt token is kept here.
 * `key` is the receipt secret's value new links are keyed with.
 */
export async function receiptFromPortal(
  deps: Deps,
  baseUrl: string,
  key: () => Promise<string>,
  link: PortalLink,
  scope: Scope,
  chargeId: string,
): Promise<PortalAction> {
  const charge = await getCharge(deps, scope, chargeId);
  if (charge?.customer_id !== link.customer_id) return { kind: 'no_charge' };
  const token = await issueReceiptLink(deps, await key(), { scope, chargeId: charge.id });
  return { kind: 'receipt', url: receiptUrl(baseUrl, token) };
}

/**
 * The page where the customer types the new card of one of their subscriptions: a checkout session
 * of its own (a card check, 3-D Secure included), made for this customer and subscription. It keeps
 * the portal token it was opened from sealed (`back.key`: the fingerprint secret's value new links
 * are keyed with), so that once the card is saved it links back to this page while the link is valid.
 */
export async function startCardReplacement(
  deps: Deps,
  baseUrl: string,
  link: PortalLink,
  scope: Scope,
  id: string,
  back: { token: string; key: () => Promise<string> },
): Promise<PortalAction> {
  const subscription = await ownSubscription(deps, link, scope, id);
  if (!subscription) return { kind: 'no_subscription' };
  if (!cardReplaceable.includes(subscription.status)) return { kind: 'not_replaceable' };
  const [customer, account] = await Promise.all([
    getCustomer(deps, scope, link.customer_id),
    getAccount(deps, scope.developerId),
  ]);
  const { plan, quantity } = subscription;
  const session = newCardSession(
    {
      id: subscription.id,
      developer_id: scope.developerId,
      mode: scope.mode,
      recurrence: { interval: plan.interval, interval_count: plan.interval_count },
    },
    {
      amount: plan.amount * quantity,
      currency: plan.currency,
      description: plan.name,
      items: quantity > 1 ? [`${plan.name} × ${quantity}`] : [plan.name],
    },
    {
      name: account ? merchantName(account) : '',
      statementDescriptor: account ? statementDescriptor(account) : subscription.statement_descriptor,
    },
    customer.email,
    baseUrl,
    deps.clock(),
    {
      sealed_token: sealPortalToken(await back.key(), back.token),
      until_ms: link.expires_at_ms,
      was_past_due: subscription.status === 'past_due',
    },
  );
  const { Put } = sessionEntity.create(deps.table, session);
  await deps.db.send(new PutCommand(Put));
  return { kind: 'card_page', url: pageUrl(baseUrl, session.token) };
}
