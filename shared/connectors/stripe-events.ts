/**
 * Stripe's events (docs/design.md#stripe-events): `POST /v1/connectors/stripe/{account_id}/events/`.
 * An event is taken only when its signature verifies with the account's connection (otherwise 400,
 * nothing done); each Stripe event id is taken once per account and mode (a duplicate answers 200
 * and changes nothing); and cobro acts on what it reads back from Stripe (shared/acquirer/notices.ts),
 * through the same steps recovery takes, so an event and the request or recovery that learned the
 * same outcome record it once between them:
 * - a checkout on Stripe's page paid or closed: its attempt is finished (the payment recorded once);
 * - a renewal's payment or a refund changed: its attempt is finished, unless its call is still
 *   running (that call records it);
 * - a dispute: stored and published as cobro's `charge.dispute.created`, once;
 * - a payout: each charge it settled records it (cobro pays out no Stripe charge itself).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type DisputeNotice, type Notice, readStripeEvent } from '../acquirer/notices.ts';
import { type Attempt, isFinal, mayBeRunning } from '../attempts/attempt.ts';
import { getAttempt } from '../attempts/repository.ts';
import type { Charge } from '../charges/charge.ts';
import { chargeKeys } from '../charges/keys.ts';
import { getCharge } from '../charges/repository.ts';
import { recordAcquirerPageDecline } from '../checkout/acquirer-page.ts';
import { finishCheckoutAttempt } from '../checkout/recovery.ts';
import type { Mode, Scope } from '../core/account.ts';
import { Invalid } from '../core/errors.ts';
import { logger } from '../core/log.ts';
import { countRun, metricNames } from '../core/metrics.ts';
import { formatAmount } from '../core/money/amount.ts';
import { currencyOf } from '../core/money/fields.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import { defineEntity } from '../db/entity.ts';
import { transactWrite } from '../db/transact.ts';
import { eventWrite } from '../events/event.ts';
import { sessionOwners } from '../ledger/owners.ts';
import { finishers, type LedgerDeps } from '../ledger/recovery.ts';
import { chargeDisputeCreated, type DisputeView } from './events.ts';
import { connectorKeys } from './keys.ts';
import { connectorMessages } from './messages.ts';

/** How long a taken event id is remembered: Stripe retries an event for three days. */
const eventMemoryDays = 30;

interface StoredDispute extends DisputeView {
  developer_id: number;
  mode: Mode;
}

const disputeEntity = defineEntity<StoredDispute>('dispute', (dispute) => ({
  ...connectorKeys.dispute(dispute.developer_id, dispute.mode, dispute.id),
  ...connectorKeys.disputeOfCharge(
    dispute.developer_id,
    dispute.mode,
    dispute.charge_id,
    dispute.created_at,
    dispute.id,
  ),
}));

/** What an event came to: taken now, a duplicate of one taken before, or nothing for cobro. */
export type Received = {
  outcome: 'handled' | 'duplicate' | 'ignored';
  event_id: string;
  type: string;
  detail?: string;
};

/** Marks the event taken; false when it was taken before (a duplicate). */
async function take(deps: LedgerDeps, scope: Scope, eventId: string, type: string): Promise<boolean> {
  const now = deps.clock();
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: {
          ...connectorKeys.stripeEvent(scope.developerId, scope.mode, eventId),
          entity: 'stripe_event',
          developer_id: scope.developerId,
          mode: scope.mode,
          type,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
          expires_at: Math.floor(now.getTime() / 1000) + eventMemoryDays * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** Forgets a taken event whose handling failed, so Stripe's next delivery of it is taken again. */
const release = (deps: LedgerDeps, scope: Scope, eventId: string) =>
  deps.db.send(
    new DeleteCommand({
      TableName: deps.table,
      Key: connectorKeys.stripeEvent(scope.developerId, scope.mode, eventId),
    }),
  );

/** The attempt a notice names, if it is this account's and mode's (never another's). */
async function ownAttempt(deps: LedgerDeps, scope: Scope, attemptId: string): Promise<Attempt | undefined> {
  const attempt = await getAttempt(deps, attemptId);
  if (!attempt) return undefined;
  // A checkout's attempt learns its owner when finished: its session is read by the step that finishes it.
  if (attempt.developer_id === null) return attempt.kind === 'checkout' ? attempt : undefined;
  return attempt.developer_id === scope.developerId && attempt.mode === scope.mode ? attempt : undefined;
}

/** Finishes the attempt a notice names, as recovery would, when there is anything left to finish. */
async function finish(deps: LedgerDeps, attempt: Attempt): Promise<string> {
  const now = deps.clock();
  if (isFinal(attempt)) return 'already recorded';
  if (attempt.kind === 'checkout') {
    // A checkout waits for the payer on Stripe's page: what Stripe says now is its outcome.
    const owners = sessionOwners(deps);
    return finishCheckoutAttempt({ ...deps, owners }, attempt as Attempt<'checkout'>, now, {
      abandon: false,
    });
  }
  // The call that made it is still running: it records what Stripe answers it.
  if (attempt.status === 'pending' && !attempt.unconfirmed && mayBeRunning(attempt, now))
    return 'its call is running';
  return finishers(deps)[attempt.kind](attempt, now);
}

/** The charge an attempt made (a checkout's, a renewal's), once recorded. */
async function chargeOfAttempt(
  deps: LedgerDeps,
  scope: Scope,
  attempt: Attempt,
): Promise<Charge | undefined> {
  const chargeId = attempt.outcome?.charge_id;
  return chargeId ? getCharge(deps, scope, chargeId) : undefined;
}

/** Stores a dispute of a charge with its `charge.dispute.created`, once whatever the deliveries. */
async function recordDispute(
  deps: LedgerDeps,
  scope: Scope,
  charge: Charge,
  notice: DisputeNotice,
): Promise<string> {
  const view: DisputeView = {
    id: notice.id,
    charge_id: charge.id,
    payment_id: charge.payment_id,
    subscription_id: charge.subscription_id ?? null,
    payment_link_id: charge.payment_link_id ?? null,
    amount: formatAmount(notice.amountMinor, currencyOf({ currency: notice.currency })),
    currency: notice.currency.toLowerCase(),
    reason: notice.reason,
    status: notice.status,
    test: scope.mode === 'test',
    created_at: notice.createdAt,
  };
  const now = deps.clock();
  try {
    await transactWrite(deps, [
      disputeEntity.create(deps.table, { ...view, developer_id: scope.developerId, mode: scope.mode }),
      eventWrite(deps.table, chargeDisputeCreated.of(scope, { object: view }, now)),
    ]);
    return 'recorded';
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) return 'recorded before';
    throw error;
  }
}

/** Records on a charge the Stripe payout that settled it (cobro pays out no Stripe charge itself). */
async function recordSettlement(
  deps: LedgerDeps,
  scope: Scope,
  charge: Charge,
  payout: { id: string; paidAt: string; netMinor: number },
): Promise<void> {
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: chargeKeys.charge(scope.developerId, scope.mode, charge.id),
      UpdateExpression: 'SET settled_payout = :payout, updated_at = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':payout': { id: payout.id, paid_at: payout.paidAt, net: payout.netMinor },
        ':now': deps.clock().toISOString(),
      },
    }),
  );
}

async function act(deps: LedgerDeps, scope: Scope, notice: Notice): Promise<string> {
  switch (notice.kind) {
    case 'ignored':
      return notice.why;
    case 'payment': {
      const attempt = await ownAttempt(deps, scope, notice.attemptId);
      if (!attempt) return 'no attempt of this account';
      // A card declined on Stripe's page: told, while the checkout waits for another card.
      if (attempt.kind === 'checkout' && notice.declineReason && !isFinal(attempt))
        return recordAcquirerPageDecline(
          { ...deps, owners: sessionOwners(deps) },
          attempt as Attempt<'checkout'>,
          notice.declineReason,
        );
      return finish(deps, attempt);
    }
    case 'checkout':
    case 'refund': {
      const attempt = await ownAttempt(deps, scope, notice.attemptId);
      return attempt ? finish(deps, attempt) : 'no attempt of this account';
    }
    case 'dispute': {
      const attempt = await ownAttempt(deps, scope, notice.attemptId);
      const charge = attempt ? await chargeOfAttempt(deps, scope, attempt) : undefined;
      return charge ? recordDispute(deps, scope, charge, notice.dispute) : 'no charge of this account';
    }
    case 'payout': {
      let settled = 0;
      for (const { attemptId, netMinor } of notice.settled) {
        const attempt = await ownAttempt(deps, scope, attemptId);
        const charge = attempt ? await chargeOfAttempt(deps, scope, attempt) : undefined;
        if (!charge) continue;
        await recordSettlement(deps, scope, charge, { id: notice.payoutId, paidAt: notice.paidAt, netMinor });
        settled += 1;
      }
      return `${settled} charges settled`;
    }
  }
}

/**
 * Takes one posted Stripe event for the account `accountId` names. 400 (Invalid) when it cannot be
 * verified; otherwise what came of it.
 */
export async function receiveStripeEvent(
  deps: LedgerDeps,
  accountId: string,
  payload: string,
  signature: string | undefined,
): Promise<Received> {
  const developerId = /^[1-9][0-9]{0,11}$/.test(accountId) ? Number(accountId) : undefined;
  const read =
    developerId === undefined
      ? ({ refused: 'not_connected' } as const)
      : await readStripeEvent(deps, developerId, payload, signature, deps.clock());
  if ('refused' in read || developerId === undefined) {
    // An operator must see these: a wrong signing secret refuses every event of the account, and
    // what waits on them (payers who closed Stripe's page, refunds settling, payouts) waits too.
    const why = 'refused' in read ? read.refused : 'not_connected';
    logger.warn('a Stripe event was refused', { account: accountId.slice(0, 16), why });
    countRun(metricNames.connectorEventsRefused, 1);
    throw new Invalid(connectorMessages.stripe_event_refused);
  }
  const scope: Scope = { developerId, mode: read.mode };
  if (!(await take(deps, scope, read.eventId, read.type)))
    return { outcome: 'duplicate', event_id: read.eventId, type: read.type };
  try {
    const detail = await act(deps, scope, read.notice);
    return {
      outcome: read.notice.kind === 'ignored' ? 'ignored' : 'handled',
      event_id: read.eventId,
      type: read.type,
      detail,
    };
  } catch (error) {
    // Not done: Stripe delivers it again later, and then it is taken again.
    await release(deps, scope, read.eventId).catch(() => undefined);
    logger.error('a Stripe event could not be handled; Stripe delivers it again', {
      event_id: read.eventId,
      type: read.type,
      error: error as Error,
    });
    throw error;
  }
}
