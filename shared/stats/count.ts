/**
 * What each event of the catalogue adds to the overview's counters, on the day (UTC) it happened:
 * - `charge.succeeded`: one charge and its amount to the volume of its currency (every approved
 *   charge, whatever paid for it: a checkout, a subscription's period, a payment link, the legacy
 *   charge);
 * - `refund.created`: one refund and its amount to what was refunded in its currency;
 * - declines and failed renewals: every declined try of a card is counted once, in one of the two.
 *   - A decline is a card its holder presented, refused: whatever the acquirer gives as the reason
 *     (a failed or impossible 3-D Secure authentication, a processing error, a refused card), each
 *     try. A payment's checkout tells it with `payment.failed` (a cardholder declined twice who then
 *     pays counts two declines and one charge); where no catalogue event tells it (a subscription's
 *     or a payment link's checkout, the portal's card page, the legacy charge), the internal
 *     `card.declined` does. A 3-D Secure challenge left unfinished is no decline: nothing was decided.
 *   - A failed renewal is a charge of a stored card cobro makes without its holder, refused
 *     (`subscription.payment_failed`): a billing run's first try of a period, each dunning retry,
 *     and the unpaid period charged right after a card is replaced at the portal's card page (that
 *     period's renewal tried again). It is not also a decline.
 * - `subscription.activated`: one more active subscription, and its price in the monthly recurring
 *   revenue; `subscription.canceled` takes away exactly what its activation added.
 * Each is counted once whatever the bus delivers (repository.ts).
 */

import { cardDeclined, chargeSucceeded } from '../charges/events.ts';
import type { Deps } from '../db/deps.ts';
import type { EventDetail } from '../events/event.ts';
import { scopeOfEvent } from '../events/event.ts';
import { paymentFailed } from '../payments/events.ts';
import { refundCreated } from '../refunds/events.ts';
import {
  subscriptionActivated,
  subscriptionCanceled,
  subscriptionPaymentFailed,
} from '../subscriptions/events.ts';
import { getSubscription } from '../subscriptions/repository.ts';
import { subscriptionPrice } from '../subscriptions/subscription.ts';
import { dayOf, minorOf, sumAttribute, weightOf } from './counters.ts';
import { countActivation, countCancellation, countDay } from './repository.ts';

/** The internal event types the counters take (a rule of their own: another source). */
export const countedInternalTypes = [cardDeclined.type] as const;

/** The event types of the catalogue the counters take (the rule's detail-types). */
export const countedEventTypes = [
  chargeSucceeded.type,
  refundCreated.type,
  paymentFailed.type,
  subscriptionPaymentFailed.type,
  subscriptionActivated.type,
  subscriptionCanceled.type,
] as const;

/** What counting an event did: counted now, counted before (a repeated delivery), or nothing to count. */
export type Counted = 'counted' | 'repeated' | 'nothing';

const outcome = (counted: boolean): Counted => (counted ? 'counted' : 'repeated');

/** Counts one event of the catalogue into its account's counters, once. */
export async function countEvent(deps: Deps, detail: EventDetail<unknown>): Promise<Counted> {
  const scope = scopeOfEvent(detail);
  const day = dayOf(detail.created_at);
  const on = { id: detail.id, day };
  switch (detail.type) {
    case chargeSucceeded.type: {
      const { object } = chargeSucceeded.read(detail).data;
      return outcome(
        await countDay(deps, scope, on, {
          charges: 1,
          [sumAttribute('volume', object.currency)]: minorOf(object.amount, object.currency),
        }),
      );
    }
    case refundCreated.type: {
      const { object } = refundCreated.read(detail).data;
      return outcome(
        await countDay(deps, scope, on, {
          refunds: 1,
          [sumAttribute('refunded', object.currency)]: minorOf(object.amount, object.currency),
        }),
      );
    }
    case paymentFailed.type:
      paymentFailed.read(detail);
      return outcome(await countDay(deps, scope, on, { declines: 1 }));
    case cardDeclined.type:
      cardDeclined.read(detail);
      return outcome(await countDay(deps, scope, on, { declines: 1 }));
    case subscriptionPaymentFailed.type:
      subscriptionPaymentFailed.read(detail);
      return outcome(await countDay(deps, scope, on, { failed_renewals: 1 }));
    case subscriptionActivated.type: {
      const { object, price } = subscriptionActivated.read(detail).data;
      // Events stored before the price was added to them: the subscription keeps the plan it took.
      const charged = price ?? (await storedPrice(deps, detail, object.subscription_id));
      if (!charged) return 'nothing';
      const weight = weightOf({ ...charged, amount: minorOf(charged.amount, charged.currency) });
      return outcome(await countActivation(deps, scope, detail.id, object.subscription_id, weight));
    }
    case subscriptionCanceled.type: {
      const { object } = subscriptionCanceled.read(detail).data;
      return outcome(await countCancellation(deps, scope, detail.id, object.subscription_id));
    }
    default:
      return 'nothing';
  }
}

async function storedPrice(deps: Deps, detail: EventDetail<unknown>, subscriptionId: string) {
  const subscription = await getSubscription(deps, scopeOfEvent(detail), subscriptionId);
  return subscription ? subscriptionPrice(subscription) : undefined;
}
