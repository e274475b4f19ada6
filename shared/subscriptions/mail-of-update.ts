/**
 * Which e-mail a `subscription.updated` sends the subscriber (docs/design.md#e-mail), and what it
 * reads to write it:
 * - its plan or quantity changed (`plan_id` or `quantity` among `previous_attributes`, asked at once
 *   or applied by a renewal): the changed notice, with the charge that paid for it when the event
 *   names one (a prorated difference, or the renewal's charge);
 * - its cancel at the period's end set, or undone (`cancel_at_period_end`): the ending notice, or
 *   the resumed one;
 * - anything else (only its metadata, a pending change set or cleared): none.
 * One event sends one e-mail: a change of plan or quantity that also set or undid the end says so in
 * the changed notice.
 */
import type * as v from 'valibot';
import { getAttempt } from '../attempts/repository.ts';
import { getCharge } from '../charges/repository.ts';
import type { Scope } from '../core/account.ts';
import { formatAmount } from '../core/money/amount.ts';
import { currencyOf } from '../core/money/fields.ts';
import type { Deps } from '../db/deps.ts';
import type { MailContext, RenderedMail } from '../mail/layout.ts';
import type { MailItem } from '../mail/words.ts';
import { getPlan } from '../plans/repository.ts';
import type { subscriptionUpdated } from './events.ts';
import {
  type ChangeCharge,
  subscriptionChangedMail,
  subscriptionEndingMail,
  subscriptionResumedMail,
} from './mail.ts';
import type { Subscription } from './subscription.ts';

/** The data of a `subscription.updated`. */
export type UpdatedData = v.InferOutput<typeof subscriptionUpdated.data>;

/** The e-mail a `subscription.updated` sends, with what the event says for it. */
export type UpdateMail =
  | {
      mail: 'changed';
      /** The charge that paid for the change, when one did. */
      chargeId: string | null;
      nextBillingAt: string | null;
      /** When it ends, when it is (still, or now) set to end at its period's end. */
      endsAt: string | null;
      trialing: boolean;
      /** The same change undid its end at the period's end. */
      resumed: boolean;
    }
  | { mail: 'ending'; endsAt: string; trialing: boolean }
  | { mail: 'resumed'; formerEnd: string | null; nextBillingAt: string | null; trialing: boolean };

/** The e-mail `data` (a `subscription.updated`'s) sends its subscriber; undefined when none. */
export function mailOfUpdate(data: UpdatedData): UpdateMail | undefined {
  const { object, previous_attributes: was } = data;
  const trialing = object.status === 'trialing';
  const endMoved = was.cancel_at_period_end !== undefined;
  const endsAt = object.cancel_at_period_end ? (object.cancel_at ?? object.current_period_end) : null;
  if (was.plan_id !== undefined || was.quantity !== undefined)
    return {
      mail: 'changed',
      chargeId: data.charge_id ?? null,
      nextBillingAt: object.next_billing_date,
      endsAt,
      trialing,
      resumed: endMoved && !object.cancel_at_period_end,
    };
  if (!endMoved) return undefined;
  if (object.cancel_at_period_end)
    // Set on a subscription without a period's end (never: only an active or trialing one takes it).
    return endsAt ? { mail: 'ending', endsAt, trialing } : undefined;
  return {
    mail: 'resumed',
    formerEnd: was.cancel_at ?? null,
    nextBillingAt: object.next_billing_date,
    trialing,
  };
}

/**
 * The charge a change names, as its notice says it: the amount and currency, and whether it was the
 * renewal that applied a change asked for the period's end (it paid the new period whole) rather
 * than a prorated difference. The charge is stored with the event: one missing is an error.
 */
export async function changeChargeOf(deps: Deps, scope: Scope, chargeId: string): Promise<ChangeCharge> {
  const charge = await getCharge(deps, scope, chargeId);
  if (!charge) throw new Error(`subscription.updated names the charge ${chargeId}, which is not stored`);
  const attempt = charge.attempt_id ? await getAttempt(deps, charge.attempt_id) : undefined;
  return {
    amount: formatAmount(charge.amount, currencyOf(charge)),
    currency: charge.currency,
    atRenewal: attempt?.kind === 'renewal',
  };
}

/**
 * The plan and quantity a change made, as its notice lists them: the subscription's plan as it was
 * changed to, or, when it has changed again since, that plan as it is now; undefined when it is gone.
 */
export async function changedItem(
  deps: Deps,
  scope: Scope,
  subscription: Subscription,
  object: UpdatedData['object'],
): Promise<MailItem | undefined> {
  const plan =
    subscription.plan_id === object.plan_id ? subscription.plan : await getPlan(deps, scope, object.plan_id);
  if (!plan) return undefined;
  return {
    name: plan.name,
    quantity: object.quantity,
    unitAmount: formatAmount(plan.amount, currencyOf(plan)),
    currency: plan.currency,
    interval: plan.interval,
    intervalCount: plan.interval_count,
  };
}

/**
 * The notice `update` (mailOfUpdate's answer for the event of `object`) sends the subscriber of
 * `subscription`, written: for a change of plan or quantity, with its plan and what it charged read
 * first; undefined when its plan is gone since (nothing true to say of it).
 */
export async function updateNotice(
  deps: Deps,
  scope: Scope,
  update: UpdateMail,
  subscription: Subscription,
  object: UpdatedData['object'],
  context: MailContext & { customerName?: string | null },
): Promise<RenderedMail | undefined> {
  const common = { ...context, subscriptionId: subscription.id, trialing: update.trialing };
  if (update.mail === 'ending')
    return subscriptionEndingMail({ ...common, planName: subscription.plan.name, endsAt: update.endsAt });
  if (update.mail === 'resumed')
    return subscriptionResumedMail({
      ...common,
      planName: subscription.plan.name,
      formerEnd: update.formerEnd,
      nextBillingAt: update.nextBillingAt,
    });
  const item = await changedItem(deps, scope, subscription, object);
  if (!item) return undefined;
  return subscriptionChangedMail({
    ...common,
    item,
    charge: update.chargeId ? await changeChargeOf(deps, scope, update.chargeId) : null,
    nextBillingAt: update.nextBillingAt,
    endsAt: update.endsAt,
    resumed: update.resumed,
  });
}
