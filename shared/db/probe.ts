/** Whether the table answers: one GetItem of a key that never exists, within a time budget. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.ts';
import { keys } from './keys.ts';

export type TableState = 'ok' | 'unreachable' | 'error';

/** Whether a failure is an answer from DynamoDB (it carries an HTTP status) or no answer at all. */
const answered = (error: unknown) =>
  typeof (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 'number';

/** `unreachable` when nothing answers within `budgetMs`, `error` when DynamoDB answers with one. */
export async function probeTable(deps: Deps, budgetMs: number): Promise<TableState> {
  try {
    // Account ids start at 1: account 0 never exists, so this reads a key and finds nothing.
    await deps.db.send(new GetCommand({ TableName: deps.table, Key: keys.account(0) }), {
      abortSignal: AbortSignal.timeout(budgetMs),
    });
    return 'ok';
  } catch (error) {
    return answered(error) ? 'error' : 'unreachable';
  }
}
