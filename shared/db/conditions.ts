/**
 * What a refused write says: which transaction items' conditions failed, and whether DynamoDB
 * cancelled a transaction only because another one touched the same item at the same moment.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** Indexes of the transaction items whose condition failed; empty for any other error. */
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
