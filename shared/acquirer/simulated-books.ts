/**
 * The simulated acquirer's books (docs/design.md#acquirer): what it did under each idempotency key,
 * each approved charge's balance, and the ledger of money that moved, kept in cobro's table under
 * keys of their own (./keys.ts). Every invariant is a condition of the write that could break it, so
 * two calls racing (a retry and its original, a charge and a lookup, ten refunds of one charge) leave
 * the books as one of them alone would have, and a repeat learns what was stored from the failed
 * condition itself (`ALL_OLD`), without a read first.
 */
import {
  type AttributeValue,
  ConditionalCheckFailedException,
  TransactionConflictException,
} from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Mode } from '../core/account.ts';
import { retryOptimistic } from '../db/optimistic.ts';
import { failedConditions, named, type TransactItem, transactNamed } from '../db/transact.ts';
import type { LedgerEntry } from './acquirer.ts';
import { simulatedKeys, simulatedLedgerShards } from './keys.ts';

/** Where the books live: cobro's table, through a client of the acquirer's own. */
export interface Books {
  db: DynamoDBDocumentClient;
  table: string;
}

/** The calls that store an outcome under their idempotency key. */
export type OperationName = 'charge' | 'verify' | 'chargeStored' | 'refund' | 'payout';

/**
 * `sealed`: a lookup found nothing and closed the key, or abandoned a challenge nobody answered;
 * nothing can be done under the key any more.
 */
export type OperationState =
  | 'approved'
  | 'declined'
  | 'challenge'
  | 'succeeded'
  | 'failed'
  | 'paid'
  | 'sealed';

/** What makes a second call with a key the same request as the first. Never card data. */
export interface Fingerprint {
  operation: OperationName;
  /** 0 for a card check, which charges nothing whatever it is asked. */
  amountMinor: number;
  currency: string;
  merchant: number;
  /** The charge a refund or payout belongs to; null for charges. */
  chargeReference: string | null;
}

/** The money an operation moved, as the ledger lists it. */
export interface Movement {
  kind: LedgerEntry['kind'];
  reference: string;
  /** When it moved (ISO 8601): the ledger's order. */
  at: string;
}

export interface OperationItem {
  pk: string;
  sk: string;
  entity: 'simulated_acquirer_operation';
  mode: Mode;
  idempotency_key: string;
  /** null on the tombstone a lookup leaves. */
  operation: OperationName | null;
  amount_minor: number;
  currency: string;
  /** The account (developer id) the call was for; 0 on a tombstone, which no account has. */
  merchant: number;
  charge_reference: string | null;
  state: OperationState;
  /** What the call answered (a charge result, a refund result, …): safe to store, it holds no card data. */
  result: Record<string, unknown> | null;
  /** The card's answers are lost (4000 0000 0000 7726): every call answering this outcome times out. */
  lost: boolean;
  movement: Movement | null;
  gsi1pk?: string;
  gsi1sk?: string;
  created_at: string;
  updated_at: string;
}

/** An approved charge's balance. */
export interface BalanceItem {
  pk: string;
  sk: string;
  entity: 'simulated_acquirer_charge';
  mode: Mode;
  reference: string;
  idempotency_key: string;
  merchant: number;
  amount_minor: number;
  currency: string;
  refunded: number;
  /**
   * `amount_minor - refunded`, kept beside it because a condition expression cannot add: the
   * refund's condition `refundable >= :amount` is "refunded + amount <= the charge".
   */
  refundable: number;
  paid_out: number;
  /** Every refund of the charge is refused (4000 0000 0000 5126). */
  refunds_refused: boolean;
  created_at: string;
  updated_at: string;
}

/** A stored outcome, ready to answer from. */
export function operationItem(
  mode: Mode,
  key: string,
  fingerprint: Fingerprint,
  outcome: {
    state: OperationState;
    result: Record<string, unknown>;
    lost: boolean;
    movement: Movement | null;
    at: string;
  },
): OperationItem {
  const ledger = outcome.movement ? simulatedKeys.ledger(outcome.movement.at, mode, key) : {};
  return {
    ...simulatedKeys.operation(mode, key),
    ...ledger,
    entity: 'simulated_acquirer_operation',
    mode,
    idempotency_key: key,
    operation: fingerprint.operation,
    amount_minor: fingerprint.amountMinor,
    currency: fingerprint.currency,
    merchant: fingerprint.merchant,
    charge_reference: fingerprint.chargeReference,
    state: outcome.state,
    result: outcome.result,
    lost: outcome.lost,
    movement: outcome.movement,
    created_at: outcome.at,
    updated_at: outcome.at,
  };
}

/** Whether a stored operation was asked by the same request. */
export function sameRequest(item: OperationItem, fingerprint: Fingerprint): boolean {
  return (
    item.operation === fingerprint.operation &&
    item.amount_minor === fingerprint.amountMinor &&
    item.currency === fingerprint.currency &&
    item.merchant === fingerprint.merchant &&
    item.charge_reference === fingerprint.chargeReference
  );
}

function oldItem<T>(item: Record<string, AttributeValue> | undefined): T | undefined {
  return item ? (unmarshall(item) as T) : undefined;
}

/** db/transact.ts takes cobro's Deps but reads only their client; the books have no clock of their own there. */
const asDeps = (books: Books) => ({ ...books, clock: () => new Date() });

/**
 * A single write racing a transaction on the same item is refused with TransactionConflict: not a
 * failure of the request, only of its timing, so it is tried again (as db/transact.ts does).
 */
const retryingConflicts = <T>(write: () => Promise<T>): Promise<T> =>
  retryOptimistic(write, { lost: (error) => error instanceof TransactionConflictException, maxWaitMs: 1000 });

/** The operation stored under a key, if any (consistent: a lookup must see a write that just finished). */
export async function readOperation(
  books: Books,
  mode: Mode,
  key: string,
): Promise<OperationItem | undefined> {
  const read = await books.db.send(
    new GetCommand({
      TableName: books.table,
      Key: simulatedKeys.operation(mode, key),
      ConsistentRead: true,
    }),
  );
  return read.Item as OperationItem | undefined;
}

/** What storing an operation came to. */
export type Stored =
  | { stored: true }
  /** The key was taken (a repeat, a racing call or a lookup's tombstone): what it holds. */
  | { stored: false; existing: OperationItem }
  /** The companion write's condition failed: the balance as it was (undefined when there is none). */
  | { stored: false; existing: undefined; balance: BalanceItem | undefined };

const putOperation = (books: Books, item: OperationItem) => ({
  TableName: books.table,
  Item: item,
  // One item per key and mode, ever: the first call's outcome is the only one.
  ConditionExpression: 'attribute_not_exists(pk)',
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
});

/**
 * Stores an operation under its key unless the key is taken, with its effect on a charge's balance
 * (`companion`) in the same transaction when it has one. A repeat costs this one call: the failed
 * condition answers what the key holds.
 */
export async function storeOperation(
  books: Books,
  item: OperationItem,
  companion?: TransactItem,
): Promise<Stored> {
  if (!companion) {
    try {
      await retryingConflicts(() => books.db.send(new PutCommand(putOperation(books, item))));
      return { stored: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const existing = oldItem<OperationItem>(error.Item);
      if (!existing) throw error;
      return { stored: false, existing };
    }
  }
  const items = [...named('operation', { Put: putOperation(books, item) }), ...named('balance', companion)];
  try {
    await transactNamed(asDeps(books), items);
    return { stored: true };
  } catch (error) {
    const failed = failedConditions(error, items);
    const existing = oldItem<OperationItem>(failed.get('operation'));
    if (existing) return { stored: false, existing };
    if (failed.has('balance')) {
      return { stored: false, existing: undefined, balance: oldItem<BalanceItem>(failed.get('balance')) };
    }
    throw error;
  }
}

/** A new approved charge's balance, written with its operation (it cannot exist before it). */
export function openBalance(
  books: Books,
  mode: Mode,
  key: string,
  charge: {
    reference: string;
    merchant: number;
    amountMinor: number;
    currency: string;
    refundsRefused: boolean;
  },
  at: string,
): TransactItem {
  const item: BalanceItem = {
    ...simulatedKeys.charge(mode, charge.reference),
    entity: 'simulated_acquirer_charge',
    mode,
    reference: charge.reference,
    idempotency_key: key,
    merchant: charge.merchant,
    amount_minor: charge.amountMinor,
    currency: charge.currency,
    refunded: 0,
    refundable: charge.amountMinor,
    paid_out: 0,
    refunds_refused: charge.refundsRefused,
    created_at: at,
    updated_at: at,
  };
  return {
    Put: {
      TableName: books.table,
      Item: item,
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * A refund's draw on its charge. The condition is the whole rule: the charge exists, is the
 * merchant's, in that currency, accepts refunds, and has at least the amount left, so racing
 * refunds can never give back more than was charged. ALL_OLD tells a refusal's reason.
 */
export function drawRefund(
  books: Books,
  mode: Mode,
  request: { chargeReference: string; merchant: number; amountMinor: number; currency: string },
  at: string,
): TransactItem {
  return {
    Update: {
      TableName: books.table,
      Key: simulatedKeys.charge(mode, request.chargeReference),
      UpdateExpression:
        'SET refunded = refunded + :amount, refundable = refundable - :amount, updated_at = :at',
      ConditionExpression:
        'attribute_exists(pk) AND merchant = :merchant AND currency = :currency AND refunds_refused = :no AND refundable >= :amount',
      ExpressionAttributeValues: {
        ':amount': request.amountMinor,
        ':merchant': request.merchant,
        ':currency': request.currency,
        ':no': false,
        ':at': at,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** A payout's addition to its charge's paid-out total; the charge must exist, be the merchant's and in that currency. */
export function addPayout(
  books: Books,
  mode: Mode,
  request: { chargeReference: string; merchant: number; amountMinor: number; currency: string },
  at: string,
): TransactItem {
  return {
    Update: {
      TableName: books.table,
      Key: simulatedKeys.charge(mode, request.chargeReference),
      UpdateExpression: 'SET paid_out = paid_out + :amount, updated_at = :at',
      ConditionExpression: 'attribute_exists(pk) AND merchant = :merchant AND currency = :currency',
      ExpressionAttributeValues: {
        ':amount': request.amountMinor,
        ':merchant': request.merchant,
        ':currency': request.currency,
        ':at': at,
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** What deciding a challenge came to: decided now, or what the key held instead. */
export type Decided = { decided: true } | { decided: false; existing: OperationItem | undefined };

/**
 * Turns a challenge still waiting into its outcome (or seals it, when abandoned), unless it was
 * decided, abandoned or never stored: one conditional update (with the charge's new balance, in one
 * transaction, when the outcome moved money), so a second answer or a racing abandon changes nothing.
 */
export async function decideChallenge(
  books: Books,
  mode: Mode,
  key: string,
  fingerprint: Fingerprint,
  outcome: {
    state: OperationState;
    result: Record<string, unknown> | null;
    movement: Movement | null;
    at: string;
  },
  companion?: TransactItem,
): Promise<Decided> {
  const ledger = outcome.movement ? simulatedKeys.ledger(outcome.movement.at, mode, key) : undefined;
  const update = {
    TableName: books.table,
    Key: simulatedKeys.operation(mode, key),
    UpdateExpression: `SET #state = :state, #result = :result, movement = :movement, updated_at = :at${
      ledger ? ', gsi1pk = :gsi1pk, gsi1sk = :gsi1sk' : ''
    }`,
    // The challenge id is not signed: it must name the operation stored under its key.
    ConditionExpression:
      '#state = :challenge AND #operation = :operation AND amount_minor = :amount AND currency = :currency AND merchant = :merchant',
    ExpressionAttributeNames: { '#state': 'state', '#result': 'result', '#operation': 'operation' },
    ExpressionAttributeValues: {
      ':state': outcome.state,
      ':result': outcome.result,
      ':movement': outcome.movement,
      ':at': outcome.at,
      ':challenge': 'challenge',
      ':operation': fingerprint.operation,
      ':amount': fingerprint.amountMinor,
      ':currency': fingerprint.currency,
      ':merchant': fingerprint.merchant,
      ...(ledger ? { ':gsi1pk': ledger.gsi1pk, ':gsi1sk': ledger.gsi1sk } : {}),
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  if (!companion) {
    try {
      await retryingConflicts(() => books.db.send(new UpdateCommand(update)));
      return { decided: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      return { decided: false, existing: oldItem<OperationItem>(error.Item) };
    }
  }
  const items = [...named('operation', { Update: update }), ...named('balance', companion)];
  try {
    await transactNamed(asDeps(books), items);
    return { decided: true };
  } catch (error) {
    const failed = failedConditions(error, items);
    if (!failed.has('operation')) throw error;
    return { decided: false, existing: oldItem<OperationItem>(failed.get('operation')) };
  }
}

/**
 * Closes a key nothing was done under, so a call arriving with it later is refused: a lookup's
 * `not_found` is then final. Conditional, so a call and a lookup racing leave one winner, and
 * two lookups racing both leave the one tombstone.
 */
export async function seal(books: Books, mode: Mode, key: string, at: string): Promise<Stored> {
  const tombstone: OperationItem = {
    ...simulatedKeys.operation(mode, key),
    entity: 'simulated_acquirer_operation',
    mode,
    idempotency_key: key,
    operation: null,
    amount_minor: 0,
    currency: '',
    merchant: 0,
    charge_reference: null,
    state: 'sealed',
    result: null,
    lost: false,
    movement: null,
    created_at: at,
    updated_at: at,
  };
  return storeOperation(books, tombstone);
}

/** The ledger entry an operation that moved money stands for. */
export function ledgerEntry(item: OperationItem): LedgerEntry | undefined {
  if (!item.movement) return undefined;
  return {
    kind: item.movement.kind,
    idempotencyKey: item.idempotency_key,
    reference: item.movement.reference,
    chargeReference: item.charge_reference,
    amountMinor: item.amount_minor,
    currency: item.currency,
    merchant: item.merchant,
    test: item.mode === 'test',
    at: item.movement.at,
  };
}

/** One ledger partition's entries from `since` up to (not including) `until`, oldest first, page by page. */
async function* partitionEntries(
  books: Books,
  partition: string,
  since: string,
  until: string,
): AsyncGenerator<OperationItem> {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await books.db.send(
      new QueryCommand({
        TableName: books.table,
        IndexName: 'gsi1',
        // Sort keys are `<ISO time>#…`: every entry at `until` sorts after the bare `until`, so
        // BETWEEN takes since <= at < until.
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :since AND :until',
        ExpressionAttributeValues: { ':pk': partition, ':since': since, ':until': until },
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) yield item as OperationItem;
    start = page.LastEvaluatedKey;
  } while (start);
}

/** Merges streams already sorted by gsi1sk into one, oldest first, holding one item of each. */
async function* mergeByTime(streams: AsyncGenerator<OperationItem>[]): AsyncGenerator<OperationItem> {
  const heads = await Promise.all(streams.map((stream) => stream.next()));
  for (;;) {
    let oldest = -1;
    for (const [index, head] of heads.entries()) {
      if (head.done) continue;
      const current = heads[oldest];
      if (!current || current.done || (head.value.gsi1sk ?? '') < (current.value.gsi1sk ?? ''))
        oldest = index;
    }
    const head = heads[oldest];
    if (!head || head.done) return;
    yield head.value;
    heads[oldest] = await (streams[oldest] as AsyncGenerator<OperationItem>).next();
  }
}

const dayMs = 86_400_000;

/**
 * The money that moved from `since` up to (not including) `until`, oldest first: per UTC day, one
 * Query per shard, merged. A range costs `simulatedLedgerShards` Queries per day it spans.
 */
export async function* readLedger(books: Books, since: Date, until: Date): AsyncGenerator<LedgerEntry> {
  const from = since.toISOString();
  const to = until.toISOString();
  if (from >= to) return;
  for (let day = Math.floor(since.getTime() / dayMs) * dayMs; day < until.getTime(); day += dayMs) {
    const date = new Date(day).toISOString().slice(0, 10);
    const shards = Array.from({ length: simulatedLedgerShards }, (_, shard) =>
      partitionEntries(books, simulatedKeys.ledgerPartition(date, shard), from, to),
    );
    for await (const item of mergeByTime(shards)) {
      const entry = ledgerEntry(item);
      if (entry) yield entry;
    }
  }
}
