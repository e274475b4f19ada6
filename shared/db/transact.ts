/**
 * TransactWriteItems, retried when DynamoDB cancels a transaction only because another one touched
 * the same item at the same moment (a counter shared by an account's creates, say): that is not a
 * failure of the request, only of its timing. When a condition fails, a repository turns it into a
 * domain error: items written with a name (`named`) are read back by that name
 * (`failedConditions`), so no caller counts positions in DynamoDB's cancellation reasons.
 */
import { type AttributeValue, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
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

/**
 * A transaction item under the name of what its condition stands for (`session`: the session is
 * still this attempt's; `attempt`: no one recorded the attempt first), so a refusal reads by name.
 */
export interface NamedItem<N extends string> {
  readonly name: N;
  readonly item: TransactItem;
}

/** Each of `items` under `name` (none for no items): what a failed condition among them means. */
export const named = <N extends string>(name: N, ...items: TransactItem[]): NamedItem<N>[] =>
  items.map((item) => ({ name, item }));

/** Writes named items as one transaction, in the order given, as `transactWrite` does. */
export const transactNamed = <N extends string>(deps: Deps, items: readonly NamedItem<N>[]) =>
  transactWrite(
    deps,
    items.map(({ item }) => item),
  );

/**
 * Which conditions refused a transaction of `items`, by name: each name with the item its first
 * refused write found (when that write asked for `ReturnValuesOnConditionCheckFailure: ALL_OLD`).
 * Empty for any other error, a conflict included. DynamoDB answers one reason per item, in the
 * order the items were sent; that order is matched here and nowhere else.
 */
export function failedConditions<N extends string>(
  error: unknown,
  items: readonly NamedItem<N>[],
): Map<N, Record<string, AttributeValue> | undefined> {
  const failed = new Map<N, Record<string, AttributeValue> | undefined>();
  if (!(error instanceof TransactionCanceledException)) return failed;
  (error.CancellationReasons ?? []).forEach((reason, index) => {
    const name = items[index]?.name;
    if (reason.Code === 'ConditionalCheckFailed' && name !== undefined && !failed.has(name)) {
      failed.set(name, reason.Item);
    }
  });
  return failed;
}
