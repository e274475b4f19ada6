/**
 * TransactWriteItems, retried when DynamoDB cancels a transaction only because another one touched
 * the same item at the same moment (a counter shared by an account's creates, say): that is not a
 * failure of the request, only of its timing. Which condition failed, when one did, is read with
 * db/conditions.ts so a repository can turn it into a domain error.
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { isTransactionConflict } from './conditions.ts';
import type { Deps } from './deps.ts';
import { retryOptimistic } from './optimistic.ts';

/** One item of a TransactWriteItems call (a Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Writes the items as one transaction, sending it again (jittered backoff) while it conflicts with
 * others; a 409 when it conflicts every time.
 */
export async function transactWrite(deps: Deps, items: TransactItem[]): Promise<void> {
  await retryOptimistic(() => deps.db.send(new TransactWriteCommand({ TransactItems: items })), {
    lost: isTransactionConflict,
    maxWaitMs: 1000,
  });
}
