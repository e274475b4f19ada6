/**
 * TransactWriteItems with the two things every caller needs: which condition failed (so a
 * repository can turn it into a domain error) and retries when DynamoDB cancels a transaction
 * because another one touched the same item at the same moment (a counter shared by an
 * account's creates, say). Those conflicts are not failures of the request, only of its timing.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.ts';

/** One item of a TransactWriteItems call (a Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Indexes of the transaction items whose condition failed; empty for any other error. */
export function conditionFailedAt(error: unknown): number[] {
  if (!(error instanceof TransactionCanceledException)) return [];
  return (error.CancellationReasons ?? []).flatMap((reason, index) =>
    reason.Code === 'ConditionalCheckFailed' ? [index] : [],
  );
}

function isConflict(error: unknown): boolean {
  return (
    error instanceof TransactionCanceledException &&
    (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict') &&
    conditionFailedAt(error).length === 0
  );
}

const attempts = 8;

/** Writes the items as one transaction, retrying transaction conflicts with jittered backoff. */
export async function transactWrite(deps: Deps, items: TransactItem[]): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.db.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      if (!isConflict(error) || attempt === attempts) throw error;
      const ceiling = Math.min(1000, 20 * 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
    }
  }
}
