/**
 * Attempts in the single table (keys in ./keys.ts). Every move of an attempt is a write conditioned
 * on its state and on the key of its current try, so of two writers that learned the same outcome
 * (the request and a recovery, two billing runs) exactly one records it. A transaction that records
 * an outcome carries `finishWrite` beside the records it makes; the condition failing there means
 * someone else recorded it first (AttemptTaken).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Deps } from '../db/deps.ts';
import { type DueShard, dueEntries } from '../db/due.ts';
import { defineEntity } from '../db/entity.ts';
import { queryEach, recordOf } from '../db/items.ts';
import type { TransactItem } from '../db/transact.ts';
import {
  type Attempt,
  type AttemptKind,
  type AttemptOutcome,
  type AttemptStatus,
  acquirerKeyOf,
  callLeaseMs,
} from './attempt.ts';
import { attemptDayShards, attemptKeys, attemptPartition, dayShardsOfPartition } from './keys.ts';

export const attemptEntity = defineEntity<Attempt>('attempt', (attempt) => ({
  ...attemptKeys.attempt(attempt.id),
  ...attemptKeys.ofDay(attempt.id, attempt.created_at),
  ...(attempt.recover_at ? attemptKeys.recovery(attempt.id, attempt.recover_at) : {}),
}));

/** The attempt was finished (or moved on to another try) by someone else first. */
export class AttemptTaken extends Error {
  readonly attempt: Attempt | undefined;
  constructor(attempt?: Attempt) {
    super('attempt already taken');
    this.attempt = attempt;
  }
}

export function getAttempt<K extends AttemptKind = AttemptKind>(
  deps: Deps,
  id: string,
): Promise<Attempt<K> | undefined> {
  return attemptEntity.get(deps, attemptKeys.attempt(id)) as Promise<Attempt<K> | undefined>;
}

/** The transaction item that stores a new attempt (it fails if the id is taken). */
export const attemptPut = (table: string, attempt: Attempt) => attemptEntity.create(table, attempt);

/** Stores a new attempt before its call; AttemptTaken (with the stored one) when the id exists. */
export async function storeAttempt(deps: Deps, attempt: Attempt): Promise<void> {
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: attemptEntity.item(attempt),
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new AttemptTaken(error.Item ? recordOf<Attempt>(unmarshall(error.Item)) : undefined);
    throw error;
  }
}

/** Removes an attempt whose call was never made (its claim was refused); nothing else may have it. */
export function discardWrite(table: string, attempt: Attempt): TransactItem {
  return {
    Delete: {
      TableName: table,
      Key: attemptKeys.attempt(attempt.id),
      ConditionExpression: '#status = :pending AND acquirer_key = :key',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'pending', ':key': attempt.acquirer_key },
    },
  };
}

/** The condition every move of an open attempt carries: still open, still the same try. */
const open = (attempt: Attempt, statuses: readonly AttemptStatus[] = ['pending', 'challenge']) => ({
  condition: `acquirer_key = :key AND #status IN (${statuses.map((_, i) => `:open${i}`).join(', ')})`,
  values: {
    ':key': attempt.acquirer_key,
    ...Object.fromEntries(statuses.map((status, i) => [`:open${i}`, status])),
  },
});

/**
 * Finishes an open attempt, as a transaction item beside what its outcome records. `owner` fills
 * in what a checkout's attempt did not know when it was stored (account, mode, amount, currency).
 */
export function finishWrite(
  table: string,
  attempt: Attempt,
  status: 'succeeded' | 'declined' | 'failed',
  outcome: AttemptOutcome,
  now: Date,
  owner?: { developerId: number; mode: string; amount: number; currency: string },
): TransactItem {
  const guard = open(attempt);
  return {
    Update: {
      TableName: table,
      Key: attemptKeys.attempt(attempt.id),
      UpdateExpression: `SET #status = :status, outcome = :outcome, recover_at = :none, unconfirmed = :false, updated_at = :now${
        owner ? ', developer_id = :developer, #mode = :mode, amount = :amount, currency = :currency' : ''
      } REMOVE gsi2pk, gsi2sk`,
      ConditionExpression: guard.condition,
      ExpressionAttributeNames: { '#status': 'status', ...(owner ? { '#mode': 'mode' } : {}) },
      ExpressionAttributeValues: {
        ...guard.values,
        ':status': status,
        ':outcome': outcome,
        ':none': null,
        ':false': false,
        ':now': now.toISOString(),
        ...(owner
          ? {
              ':developer': owner.developerId,
              ':mode': owner.mode,
              ':amount': owner.amount,
              ':currency': owner.currency,
            }
          : {}),
      },
    },
  };
}

/** Moves an open attempt's recovery time (and its place in the recovery index). */
function recoverAtWrite(
  table: string,
  attempt: Attempt,
  recoverAt: Date,
  now: Date,
  set: { status?: AttemptStatus; unconfirmed?: boolean } = {},
  from?: readonly AttemptStatus[],
): TransactItem {
  const guard = open(attempt, from);
  const at = recoverAt.toISOString();
  const { gsi2pk, gsi2sk } = attemptKeys.recovery(attempt.id, at);
  return {
    Update: {
      TableName: table,
      Key: attemptKeys.attempt(attempt.id),
      UpdateExpression: `SET recover_at = :at, gsi2pk = :gsi2pk, gsi2sk = :gsi2sk, updated_at = :now${
        set.status ? ', #status = :status' : ''
      }${set.unconfirmed !== undefined ? ', unconfirmed = :unconfirmed' : ''}`,
      ConditionExpression: guard.condition,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ...guard.values,
        ':at': at,
        ':gsi2pk': gsi2pk,
        ':gsi2sk': gsi2sk,
        ':now': now.toISOString(),
        ...(set.status ? { ':status': set.status } : {}),
        ...(set.unconfirmed !== undefined ? { ':unconfirmed': set.unconfirmed } : {}),
      },
    },
  };
}

/** The call ended without an answer: recovery may take the attempt at once. */
export const unconfirmedWrite = (table: string, attempt: Attempt, now: Date) =>
  recoverAtWrite(table, attempt, now, now, { unconfirmed: true }, ['pending']);

/** A checkout's call asked for a 3-D Secure challenge: the attempt waits for the cardholder. */
export const challengeWrite = (table: string, attempt: Attempt, now: Date, until: Date) =>
  recoverAtWrite(table, attempt, until, now, { status: 'challenge' }, ['pending']);

/** The cardholder answered the challenge: the attempt's call runs again (completeChallenge). */
export const answeringWrite = (table: string, attempt: Attempt, now: Date) =>
  recoverAtWrite(table, attempt, new Date(now.getTime() + callLeaseMs), now, { status: 'pending' }, [
    'challenge',
  ]);

/** Recovery takes an attempt for a while, so two recoveries do not work on it at once. */
export const leaseWrite = (table: string, attempt: Attempt, now: Date, until: Date) =>
  recoverAtWrite(table, attempt, until, now);

/**
 * Starts a new try of an attempt whose last one failed or declined (a definite outcome): the
 * attempt `next` (restarted) replaces it, conditioned on the try it ends, under a new acquirer key.
 * `from` widens the statuses the try may end in: an automatic refund waiting to be retried is still
 * pending (retryLaterWrite).
 */
export function restartWrite(
  table: string,
  previous: Attempt,
  next: Attempt,
  from: readonly AttemptStatus[] = ['failed', 'declined'],
): TransactItem {
  return {
    Put: {
      TableName: table,
      Item: attemptEntity.item(next),
      ConditionExpression: `acquirer_key = :old AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':old': previous.acquirer_key,
        ...Object.fromEntries(from.map((status, i) => [`:from${i}`, status])),
      },
    },
  };
}

/** The first wait before a refused money movement that must still happen is tried again. */
export const retryBaseMs = 10_000;
/** The longest wait between two tries of it. */
export const retryMaxMs = 60 * 60_000;

/**
 * Keeps an open attempt whose try the acquirer refused (or never received) pending, for recovery
 * to try again at `now` + a wait that doubles with every try (retryBaseMs, at most retryMaxMs).
 * For a movement that must still happen whatever the acquirer said once: an automatic refund.
 */
export function retryLaterWrite(table: string, attempt: Attempt, now: Date): TransactItem {
  const wait = Math.min(retryBaseMs * 2 ** Math.min(attempt.tries - 1, 20), retryMaxMs);
  return recoverAtWrite(table, attempt, new Date(now.getTime() + wait), now, { unconfirmed: false }, [
    'pending',
  ]);
}

/** The next try of a finished attempt: a new acquirer key, pending, recoverable after the call's lease. */
export function restarted<K extends AttemptKind>(
  attempt: Attempt<K>,
  now: Date,
  changes: Partial<Pick<Attempt<K>, 'subject' | 'amount' | 'currency'>> = {},
): Attempt<K> {
  const tries = attempt.tries + 1;
  return {
    ...attempt,
    ...changes,
    status: 'pending',
    tries,
    tried_at: now.toISOString(),
    acquirer_key: acquirerKeyOf(attempt.id, tries),
    outcome: null,
    unconfirmed: false,
    recover_at: new Date(now.getTime() + callLeaseMs).toISOString(),
    updated_at: now.toISOString(),
  };
}

/** Writes one attempt move (an Update, Put or Delete item) on its own; false when its condition failed. */
export async function moveAttempt(deps: Deps, item: TransactItem): Promise<boolean> {
  try {
    if (item.Update)
      await deps.db.send(new UpdateCommand(item.Update as ConstructorParameters<typeof UpdateCommand>[0]));
    else if (item.Put)
      await deps.db.send(new PutCommand(item.Put as ConstructorParameters<typeof PutCommand>[0]));
    else if (item.Delete)
      await deps.db.send(new DeleteCommand(item.Delete as ConstructorParameters<typeof DeleteCommand>[0]));
    else throw new Error('moveAttempt takes an Update, a Put or a Delete');
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Attempts recovery may take at `now` (at most `limit` per shard), oldest first within a shard; of
 * one partition of the recovery index when `shard` is given.
 */
export async function dueAttempts(
  deps: Deps,
  now: Date,
  limit: number,
  shard?: DueShard,
): Promise<Attempt[]> {
  const items = await dueEntries<Record<string, unknown>>(
    deps,
    attemptKeys.recoveryPartition,
    now,
    limit,
    'gsi2',
    shard,
  );
  return items.map((item) => recordOf<Attempt>(item));
}

/**
 * Every attempt made between `since` and `until` (by day and shard, never a Scan), to `visit`; only
 * those of recovery partition `partition` when given (reading only the day shards that can hold them).
 */
export async function eachAttemptBetween(
  deps: Deps,
  since: Date,
  until: Date,
  visit: (attempt: Attempt) => void,
  partition?: number,
): Promise<void> {
  const shards =
    partition === undefined
      ? Array.from({ length: attemptDayShards }, (_, shard) => shard)
      : dayShardsOfPartition(partition);
  const from = since.toISOString();
  const to = until.toISOString();
  for (let day = new Date(`${from.slice(0, 10)}T00:00:00.000Z`); day <= until; ) {
    const name = day.toISOString().slice(0, 10);
    await Promise.all(
      shards.map((shard) =>
        queryEach(
          deps,
          {
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
            ExpressionAttributeValues: {
              ':pk': attemptKeys.dayPartition(name, shard),
              ':from': from,
              ':to': `${to}~`,
            },
          },
          (item) => {
            const attempt = recordOf<Attempt>(item);
            if (partition === undefined || attemptPartition(attempt.id) === partition) visit(attempt);
            return true;
          },
        ),
      ),
    );
    day = new Date(day.getTime() + 86_400_000);
  }
}
