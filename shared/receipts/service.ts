/** A receipt's link made for an e-mail, and opened again from it (docs/design.md#receipts). */
import { getAccount } from '../accounts/repository.ts';
import type { Attempt } from '../attempts/attempt.ts';
import { getAttempt } from '../attempts/repository.ts';
import type { Charge } from '../charges/charge.ts';
import { getCharge } from '../charges/repository.ts';
import type { Scope } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import { type Secret, stageSecret, type TokenKeys, tokenKeys } from '../core/secrets.ts';
import type { Deps } from '../db/deps.ts';
import { periodAt } from '../subscriptions/periods.ts';
import { getSubscription } from '../subscriptions/repository.ts';
import { type ReceiptBought, type ReceiptView, receiptView } from './receipt.ts';
import { findReceiptLink } from './repository.ts';

/** The values of the secret that keys receipt tokens: one to key new links with, all a link may be under. */
export type ReceiptKeys = TokenKeys;

/** The stage's fingerprint secret, as receipt tokens use it (docs/operations.md: replacing it twice). */
export const stageReceiptKeys = (secret: Secret = stageSecret(envNames.fingerprintSecret)): ReceiptKeys =>
  tokenKeys(secret);

/** The receipt a token opens, as it stands now (a refund since shows), or undefined. */
export async function openReceipt(
  deps: Deps,
  keys: ReceiptKeys,
  token: string,
): Promise<ReceiptView | undefined> {
  const link = await findReceiptLink(deps, await keys.lookup(), token);
  if (!link) return undefined;
  const scope = { developerId: link.developer_id, mode: link.mode };
  const [charge, account] = await Promise.all([
    getCharge(deps, scope, link.charge_id),
    getAccount(deps, link.developer_id),
  ]);
  if (!charge || !account) return undefined;
  return receiptView(charge, account, link);
}

/**
 * What `charge` bought, read once when its receipt's link is made and kept on the link, so the
 * receipt keeps saying it whatever the subscription becomes: for a subscription's charge, its plan,
 * quantity and unit price as subscribed, and the period it pays for (a renewal's attempt names that
 * period; the charge at checkout pays for the first). Nothing for any other charge, when the
 * subscription is gone, or when its plan × quantity is not what the charge took.
 */
export async function receiptBought(deps: Deps, scope: Scope, charge: Charge): Promise<ReceiptBought> {
  if (!charge.subscription_id) return {};
  const [subscription, attempt] = await Promise.all([
    getSubscription(deps, scope, charge.subscription_id),
    charge.attempt_id ? getAttempt(deps, charge.attempt_id) : undefined,
  ]);
  if (!subscription) return {};
  const { plan } = subscription;
  const item = {
    name: plan.name,
    quantity: subscription.quantity,
    unit_amount: plan.amount,
    interval: plan.interval,
    interval_count: plan.interval_count,
  };
  // The receipt states what was paid for: a plan × quantity that does not add up to the charge
  // (changed between the charge and this e-mail) is not stated at all.
  if (item.unit_amount * item.quantity !== charge.amount) return {};
  const renewal = attempt?.kind === 'renewal' ? (attempt as Attempt<'renewal'>).subject : undefined;
  // A renewal keeps its period's dates (the periods may have been counted again since: a change of
  // interval); one stored before they were kept names its period's index.
  if (renewal?.starts_at && renewal.ends_at)
    return { item, period: { start: renewal.starts_at, end: renewal.ends_at } };
  const index = renewal ? renewal.period : attempt?.kind === 'checkout' ? 0 : undefined;
  if (!subscription.anchor || index === undefined) return { item };
  const period = periodAt(new Date(subscription.anchor), plan.interval, plan.interval_count, index);
  return { item, period: { start: period.start.toISOString(), end: period.end.toISOString() } };
}
