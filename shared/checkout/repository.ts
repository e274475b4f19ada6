/**
 * Checkout sessions in the single table. Every step is a conditional write on the session item:
 * claim (open → charging) before the acquirer is asked, then decline (back to open, one more
 * decline), challenge (back to open, holding the challenge) or pay (charging → paid, in the same
 * transaction as the charge, the payment and the event). Single use rests on these conditions.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Charge } from '../charges/charge.ts';
import { chargeEntity } from '../charges/repository.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getRecord, recordOf } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { conditionFailedAt, type TransactItem, transactWrite } from '../db/transact.ts';
import { type EventDetail, eventWrite, internalEventWrite } from '../events/event.ts';
import type { Payment } from '../payments/payment.ts';
import { paymentEntity } from '../payments/repository.ts';
import {
  type CheckoutSession,
  claimMs,
  maxDeclines,
  type PendingChallenge,
  reopenedFields,
  type SubscriptionPaid,
} from './session.ts';

/** Another checkout created the customer with this e-mail first: look it up again and retry. */
/** A checkout session, keyed by its token alone: the page knows nothing else. */
export const sessionEntity = defineEntity<CheckoutSession>('checkout', (session) =>
  keys.checkout(session.token),
);

/** Stores a pending payment and its checkout session together. */
export async function createPayment(deps: Deps, payment: Payment, session: CheckoutSession): Promise<void> {
  await transactWrite(deps, [
    paymentEntity.create(deps.table, payment),
    sessionEntity.create(deps.table, session),
  ]);
}

export class CustomerTaken extends Error {}

/** The items of the session's owner (a payment link) met a change since they were read: read again. */
export class OwnerRaced extends Error {}

/** The session was claimed, paid, locked or expired by the time this request wrote. */
export class SessionUnavailable extends Error {
  readonly session: CheckoutSession | undefined;
  constructor(session: CheckoutSession | undefined) {
    super('checkout session is not open');
    this.session = session;
  }
}

const strip = (item: Record<string, unknown>) => recordOf<CheckoutSession>(item);

export function getSession(deps: Deps, token: string): Promise<CheckoutSession | undefined> {
  return getRecord<CheckoutSession>(deps, keys.checkout(token));
}

async function update(
  deps: Deps,
  token: string,
  expression: {
    update: string;
    condition: string;
    names?: Record<string, string>;
    values: Record<string, unknown>;
  },
): Promise<CheckoutSession> {
  try {
    const result = await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: keys.checkout(token),
        UpdateExpression: expression.update,
        ConditionExpression: expression.condition,
        ExpressionAttributeNames: { '#status': 'status', ...expression.names },
        ExpressionAttributeValues: expression.values,
        ReturnValues: 'ALL_NEW',
        // A refused write answers the session as it is, so deciding why costs no second read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return strip(result.Attributes ?? {});
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw new SessionUnavailable(error.Item ? strip(unmarshall(error.Item)) : undefined);
    }
    throw error;
  }
}

/**
 * Takes the session for one submit: open (or charging with a lapsed claim), not locked, not
 * expired. Of two submits at once exactly one gets it; the other gets SessionUnavailable.
 */
export function claimSession(deps: Deps, token: string, now: Date, csrf?: string): Promise<CheckoutSession> {
  const ms = now.getTime();
  // With the posted CSRF token in the condition, a submit needs no read of the session first.
  const csrfCondition = csrf === undefined ? '' : ' AND csrf = :csrf';
  return update(deps, token, {
    update: 'SET #status = :charging, charging_until = :until, updated_at = :now',
    condition: `(#status = :open OR (#status = :charging AND charging_until < :ms)) AND declines < :max AND expires_at_ms > :ms${csrfCondition}`,
    values: {
      ...(csrf === undefined ? {} : { ':csrf': csrf }),
      ':charging': 'charging',
      ':open': 'open',
      ':until': ms + claimMs,
      ':ms': ms,
      ':max': maxDeclines,
      ':now': now.toISOString(),
    },
  });
}

/**
 * The transaction item that ends the claim this call holds (a session still `charging` under the
 * same lease): `set` is what the outcome writes besides clearing the lease and the challenge.
 */
function endClaim(
  deps: Deps,
  claimed: CheckoutSession,
  at: string,
  set: string,
  values: Record<string, unknown>,
) {
  return {
    Update: {
      TableName: deps.table,
      Key: keys.checkout(claimed.token),
      UpdateExpression: `SET charging_until = :none, challenge = :none, updated_at = :now, ${set}`,
      ConditionExpression: '#status = :charging AND charging_until = :until',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':charging': 'charging',
        ':none': null,
        ':until': claimed.charging_until,
        ':now': at,
        ...values,
      },
    },
  };
}

/** Gives the session back after a decline, counting it; the fifth locks the session. */
export async function recordDecline(
  deps: Deps,
  claimed: CheckoutSession,
  reason: string,
  event: EventDetail<unknown> | null,
  now: Date,
  extra: TransactItem[] = [],
): Promise<CheckoutSession> {
  const at = now.toISOString();
  try {
    await transactWrite(deps, [
      endClaim(deps, claimed, at, '#status = :open, last_decline = :reason ADD declines :one', {
        ':open': 'open',
        ':reason': reason,
        ':one': 1,
      }),
      ...(event ? [eventWrite(deps.table, event)] : []),
      ...extra,
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0))
      throw new SessionUnavailable(await getSession(deps, claimed.token));
    throw error;
  }
  // The claim held, so the session is the claimed one with this decline recorded.
  return {
    ...claimed,
    status: 'open',
    charging_until: null,
    challenge: null,
    last_decline: reason,
    declines: claimed.declines + 1,
    updated_at: at,
  };
}

/** Gives the session back holding a 3-D Secure challenge the cardholder must answer. */
export function holdChallenge(
  deps: Deps,
  token: string,
  challenge: PendingChallenge,
  now: Date,
): Promise<CheckoutSession> {
  return update(deps, token, {
    update: 'SET #status = :open, charging_until = :none, challenge = :challenge, updated_at = :now',
    condition: '#status = :charging',
    values: {
      ':open': 'open',
      ':charging': 'charging',
      ':none': null,
      ':challenge': challenge,
      ':now': now.toISOString(),
    },
  });
}

/**
 * Records a paid subscription checkout in one transaction: the session becomes paid (only from this
 * request's claim) holding what the activation needs, the first charge (none in a trial) and the
 * customer (when new) written, and the internal event that starts the activation stored.
 */
export async function completeSubscriptionCheckout(
  deps: Deps,
  input: {
    session: CheckoutSession;
    paid: SubscriptionPaid;
    charge: Charge | null;
    customer: { writes: TransactItem[] };
    event: EventDetail<unknown>;
    now: Date;
  },
): Promise<void> {
  const { session, paid, charge, customer, event, now } = input;
  try {
    await transactWrite(deps, [
      endClaim(deps, session, now.toISOString(), '#status = :paid, subscription_paid = :sub', {
        ':paid': 'paid',
        ':sub': paid,
      }),
      ...customer.writes,
      ...(charge ? [chargeEntity.create(deps.table, charge)] : []),
      internalEventWrite(deps.table, event),
    ]);
  } catch (error) {
    const failed = conditionFailedAt(error);
    if (failed.includes(0)) throw new SessionUnavailable(await getSession(deps, session.token));
    if (failed.some((index) => index >= 1 && index < 1 + customer.writes.length)) throw new CustomerTaken();
    throw error;
  }
}

/**
 * Records a paid payment link's page in one transaction: the session becomes paid (only from this
 * request's claim), the charge and the customer (when new) written, with the link's own items.
 */
export async function completeLinkCheckout(
  deps: Deps,
  input: {
    session: CheckoutSession;
    charge: Charge;
    customer: { writes: TransactItem[] };
    owned: TransactItem[];
    now: Date;
  },
): Promise<void> {
  const { session, charge, customer, owned, now } = input;
  try {
    await transactWrite(deps, [
      endClaim(deps, session, now.toISOString(), '#status = :paid', { ':paid': 'paid' }),
      chargeEntity.create(deps.table, charge),
      ...customer.writes,
      ...owned,
    ]);
  } catch (error) {
    const failed = conditionFailedAt(error);
    if (failed.includes(0)) throw new SessionUnavailable(await getSession(deps, session.token));
    if (failed.some((index) => index >= 2 && index < 2 + customer.writes.length)) throw new CustomerTaken();
    if (failed.some((index) => index >= 2 + customer.writes.length)) throw new OwnerRaced();
    throw error;
  }
}

/**
 * Records a paid checkout in one transaction: the session becomes paid (only from this request's
 * claim), the payment completed, the charge and the customer (when new) written, the event stored.
 */
export async function completeCheckout(
  deps: Deps,
  input: {
    session: CheckoutSession;
    charge: Charge;
    customer: { id: string; email: string; writes: TransactItem[] };
    event: EventDetail<unknown>;
    now: Date;
  },
): Promise<void> {
  const { session, charge, customer, event, now } = input;
  const at = now.toISOString();
  try {
    await transactWrite(deps, [
      endClaim(deps, session, at, '#status = :paid', { ':paid': 'paid' }),
      {
        Update: {
          TableName: deps.table,
          Key: keys.payment(session.developer_id, session.mode, session.payment_id),
          UpdateExpression:
            'SET #status = :completed, charge_id = :charge, customer_id = :customer, customer_email = :email, payment_method = :card, card_last4 = :last4, card_brand = :brand, updated_at = :now',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':completed': 'completed',
            ':pending': 'pending',
            ':charge': charge.id,
            ':customer': customer.id,
            ':email': customer.email,
            ':card': 'card',
            ':last4': charge.card.last4,
            ':brand': charge.card.brand,
            ':now': at,
          },
        },
      },
      chargeEntity.create(deps.table, charge),
      ...customer.writes,
      eventWrite(deps.table, event),
    ]);
  } catch (error) {
    const failed = conditionFailedAt(error);
    if (failed.includes(0) || failed.includes(1))
      throw new SessionUnavailable(await getSession(deps, session.token));
    // Items 3 onwards (before the event) are the new customer's, conditioned on its e-mail being free.
    if (failed.some((index) => index >= 3 && index < 3 + customer.writes.length)) throw new CustomerTaken();
    throw error;
  }
}

/** A condition on a session: no payment's claim holds it now (`:charging`, `:ms` in the values). */
const notHeld = 'NOT (#status = :charging AND charging_until > :ms)';

/**
 * A payment link's page brought in step with its link, as a transaction item: reopened (a new
 * session's state, no declines, a new CSRF token), closed (expired now), or kept as it is; the
 * payer's e-mail set in every case. Refused while a payment's claim holds the page, so a change
 * of the link never cuts a payment off half way.
 */
export function linkPageWrite(
  table: string,
  token: string,
  now: Date,
  change: 'reopen' | 'close' | 'keep',
  customerEmail: string | null,
): TransactItem {
  const fields: Record<string, unknown> = {
    customer_email: customerEmail,
    updated_at: now.toISOString(),
    ...(change === 'reopen' ? reopenedFields(now) : {}),
    ...(change === 'close' ? { expires_at_ms: now.getTime() } : {}),
  };
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = { ':charging': 'charging', ':ms': now.getTime() };
  const sets = Object.entries(fields).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  return {
    Update: {
      TableName: table,
      Key: keys.checkout(token),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: `attribute_exists(pk) AND ${notHeld}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A payment link's page deleted with its link, as a transaction item; refused while a claim holds it. */
export function linkPageDelete(table: string, token: string, now: Date): TransactItem {
  return {
    Delete: {
      TableName: table,
      Key: keys.checkout(token),
      ConditionExpression: notHeld,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':charging': 'charging', ':ms': now.getTime() },
    },
  };
}
