/**
 * Checkout sessions in the single table. Every step is a conditional write on the session item:
 * claim (open → charging, for one attempt) before the acquirer is asked, then, in one transaction
 * with the attempt's own move (shared/attempts): decline (back to open, one more decline),
 * challenge (back to open, holding the challenge), confirming (no answer: recovery's), or pay
 * (paid, with the charge and what the session's owner writes). Single use rests on these conditions.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getRecord, recordOf } from '../db/items.ts';
import { type TransactItem, transactWrite } from '../db/transact.ts';
import type { Payment } from '../payments/payment.ts';
import { paymentEntity } from '../payments/repository.ts';
import { checkoutKeys } from './keys.ts';
import {
  type CheckoutSession,
  claimMs,
  maxDeclines,
  type PendingChallenge,
  reopenedFields,
  type SessionRecurrence,
} from './session.ts';

/** A checkout session, keyed by its token alone: the page knows nothing else. */
export const sessionEntity = defineEntity<CheckoutSession>('checkout', (session) =>
  checkoutKeys.session(session.token),
);

/** Stores a pending payment and its checkout session together. */
export async function createPayment(deps: Deps, payment: Payment, session: CheckoutSession): Promise<void> {
  await transactWrite(deps, [
    paymentEntity.create(deps.table, payment),
    sessionEntity.create(deps.table, session),
  ]);
}

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
  return getRecord<CheckoutSession>(deps, checkoutKeys.session(token));
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
        Key: checkoutKeys.session(token),
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
 * Takes the session for one submit's attempt: open, not locked, not expired (and, for a submit of
 * the pay form, under the posted CSRF token). Of two submits at once exactly one gets it; the other
 * gets SessionUnavailable. The claim holds the session until its attempt's outcome is recorded.
 * `challenge`: the cardholder's answer to the 3-D Secure challenge of the attempt the session holds.
 */
export function claimSession(
  deps: Deps,
  token: string,
  now: Date,
  attemptId: string,
  options: { csrf?: string; challenge?: boolean } = {},
): Promise<CheckoutSession> {
  const ms = now.getTime();
  // With the posted CSRF token in the condition, a submit needs no read of the session first.
  const csrfCondition = options.csrf === undefined ? '' : ' AND csrf = :csrf';
  const challengeCondition = options.challenge
    ? ' AND attempt_id = :attempt AND attribute_type(challenge, :map)'
    : '';
  return update(deps, token, {
    update: 'SET #status = :charging, charging_until = :until, attempt_id = :attempt, updated_at = :now',
    // A claim taken before claims had attempts (no attempt_id) lapses as it always did.
    condition: `(#status = :open OR (#status = :charging AND attribute_not_exists(attempt_id) AND charging_until < :ms)) AND declines < :max AND expires_at_ms > :ms${csrfCondition}${challengeCondition}`,
    values: {
      ...(options.csrf === undefined ? {} : { ':csrf': options.csrf }),
      ...(options.challenge ? { ':map': 'M' } : {}),
      ':charging': 'charging',
      ':open': 'open',
      ':attempt': attemptId,
      ':until': ms + claimMs,
      ':ms': ms,
      ':max': maxDeclines,
      ':now': now.toISOString(),
    },
  });
}

/** Gives back a claim whose attempt could not be stored (nothing was asked of the acquirer). */
export async function unclaim(deps: Deps, claimed: CheckoutSession, now: Date): Promise<void> {
  await update(deps, claimed.token, {
    update:
      'SET #status = :open, attempt_id = :none, charging_until = :none, challenge = :none, updated_at = :now',
    condition: 'attempt_id = :attempt AND #status = :charging',
    values: {
      ':open': 'open',
      ':none': null,
      ':attempt': claimed.attempt_id,
      ':charging': 'charging',
      ':now': now.toISOString(),
    },
  }).catch((error: unknown) => {
    if (!(error instanceof SessionUnavailable)) throw error;
  });
}

/**
 * The transaction item that ends the claim of `attemptId` (a session it still holds, charging or
 * being confirmed): `set` is what the outcome writes besides clearing the claim.
 */
function endClaim(
  table: string,
  token: string,
  attemptId: string,
  at: string,
  set: string,
  values: Record<string, unknown>,
  keepAttempt = false,
  orWaiting = false,
): TransactItem {
  // `orWaiting`: also a session open holding the attempt's challenge (the cardholder never answered).
  return {
    Update: {
      TableName: table,
      Key: checkoutKeys.session(token),
      UpdateExpression: `SET charging_until = :none, ${keepAttempt ? '' : 'attempt_id = :none, '}updated_at = :now, ${set}`,
      ConditionExpression: `attempt_id = :attempt AND #status IN (:charging, :confirming${orWaiting ? ', :open' : ''})`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':charging': 'charging',
        ':confirming': 'confirming',
        ':none': null,
        ':attempt': attemptId,
        ':now': at,
        ...(orWaiting ? { ':open': 'open' } : {}),
        ...values,
      },
    },
  };
}

/** The session an approval paid (or voided, its purpose gone meanwhile), as a transaction item. */
export const sessionPaidWrite = (
  table: string,
  session: CheckoutSession,
  attemptId: string,
  chargeId: string | null,
  voided: string | null,
  now: Date,
) =>
  endClaim(
    table,
    session.token,
    attemptId,
    now.toISOString(),
    '#status = :status, challenge = :none, charge_id = :charge, voided_reason = :reason',
    { ':status': voided ? 'voided' : 'paid', ':charge': chargeId, ':reason': voided },
    false,
    // A payment made on the acquirer's own page is approved while the session waits for the payer.
    true,
  );

/** A session given back open after a decline, counting it, as a transaction item; the fifth locks it. */
export const sessionDeclinedWrite = (
  table: string,
  session: CheckoutSession,
  attemptId: string,
  reason: string,
  now: Date,
) =>
  endClaim(
    table,
    session.token,
    attemptId,
    now.toISOString(),
    '#status = :open, challenge = :none, last_decline = :reason ADD declines :one',
    { ':open': 'open', ':reason': reason, ':one': 1 },
    false,
    true,
  );

/**
 * A session given back open, as it was, when its attempt moved no money: its call never reached
 * the acquirer, or its challenge was never answered (abandoned by recovery).
 */
export const sessionReleasedWrite = (table: string, token: string, attemptId: string, now: Date) =>
  endClaim(
    table,
    token,
    attemptId,
    now.toISOString(),
    '#status = :open, challenge = :none',
    { ':open': 'open' },
    false,
    true,
  );

/** A session given back open holding a 3-D Secure challenge, still held by its attempt. */
export const sessionChallengeWrite = (
  table: string,
  session: CheckoutSession,
  attemptId: string,
  challenge: PendingChallenge,
  now: Date,
) =>
  endClaim(
    table,
    session.token,
    attemptId,
    now.toISOString(),
    '#status = :open, challenge = :challenge',
    { ':open': 'open', ':challenge': challenge },
    true,
  );

/** The submit's call ended without an answer: the session waits for recovery (`confirming`). */
export const sessionConfirmingWrite = (
  table: string,
  session: CheckoutSession,
  attemptId: string,
  now: Date,
) => endClaim(table, session.token, attemptId, now.toISOString(), '#status = :confirming', {}, true);

/**
 * A condition on a session: no attempt holds it (`:charging`, `:confirming` in the values), and no
 * payer is on the acquirer's own page (a challenge with a `url`: Stripe's). cobro's own 3-D Secure
 * challenge moves no money until cobro completes it, so its page may go; but a payer on Stripe's
 * page can pay there whatever cobro does meanwhile, so such a page is closed, never deleted, and
 * the payment is recorded (and refunded).
 */
const notHeld = 'NOT (#status IN (:charging, :confirming)) AND attribute_not_exists(challenge.#url)';
const heldValues = { ':charging': 'charging', ':confirming': 'confirming' };
const heldNames = { '#url': 'url' };

/**
 * A payment link's page brought in step with its link, as a transaction item: reopened (a new
 * session's state, no declines, a new CSRF token), closed (expired now), or kept as it is; the
 * payer's e-mail and whether the link recurs set in every case. Refused while a payment's claim holds the page, so a change
 * of the link never cuts a payment off half way.
 */
export function linkPageWrite(
  table: string,
  token: string,
  now: Date,
  change: 'reopen' | 'close' | 'keep',
  customerEmail: string | null,
  recurrence: SessionRecurrence | null,
): TransactItem {
  const fields: Record<string, unknown> = {
    customer_email: customerEmail,
    // The page says whether the link charges again each period, as the link says now.
    recurrence,
    updated_at: now.toISOString(),
    ...(change === 'reopen' ? reopenedFields(now) : {}),
    ...(change === 'close' ? { expires_at_ms: now.getTime() } : {}),
  };
  const names: Record<string, string> = { '#status': 'status', ...heldNames };
  const values: Record<string, unknown> = { ...heldValues };
  const sets = Object.entries(fields).map(([name, value], index) => {
    names[`#f${index}`] = name;
    values[`:f${index}`] = value;
    return `#f${index} = :f${index}`;
  });
  return {
    Update: {
      TableName: table,
      Key: checkoutKeys.session(token),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ConditionExpression: `attribute_exists(pk) AND ${notHeld}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/** A payment link's page deleted with its link, as a transaction item; refused while an attempt holds it. */
export function linkPageDelete(table: string, token: string): TransactItem {
  return {
    Delete: {
      TableName: table,
      Key: checkoutKeys.session(token),
      ConditionExpression: notHeld,
      ExpressionAttributeNames: { '#status': 'status', ...heldNames },
      ExpressionAttributeValues: heldValues,
    },
  };
}

/**
 * A page whose link is deleted while a payment holds it: closed (expired now, kept a week for the
 * payer's answer), not deleted, so the payment under way is recorded, and refunded: an approved
 * charge is never discarded.
 */
export function linkPageCloseWrite(table: string, token: string, now: Date): TransactItem {
  return {
    Update: {
      TableName: table,
      Key: checkoutKeys.session(token),
      UpdateExpression: 'SET expires_at_ms = :now, expires_at = :ttl, updated_at = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':now': now.getTime(),
        ':ttl': Math.floor(now.getTime() / 1000) + 7 * 86_400,
        ':at': now.toISOString(),
      },
    },
  };
}
