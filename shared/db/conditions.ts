/**
 * What a refused write says: whether any transaction item's condition failed (or the first item's,
 * the record the write is about), and whether DynamoDB cancelled a transaction only because another
 * one touched the same item at the same moment. A transaction whose refusals mean different things
 * item by item names its items instead and reads them by name (`named`, `failedConditions` in
 * ./transact.ts).
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/**
 * Indexes of the transaction items whose condition failed; empty for any other error. Read only
 * whether there are any, or whether the first is among them: for any other item, name the items.
 */
export function conditionFailedAt(error: unknown): number[] {
  if (!(error instanceof TransactionCanceledException)) return [];
  return (error.CancellationReasons ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [index] : [],
  );
}

/** A transaction cancelled for its timing alone (a conflict with another, no condition failed). */
export function isTransactionConflict(error: unknown): boolean {
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict') &&
    conditionFailedAt(error).length === 0
  );
}
