/** Whether the table answers: one GetItem of a key that never exists, within a time budget. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from './deps.ts';
import { probeKey } from './keys.ts';

export type TableState = 'ok' | 'unreachable' | 'error';

/** Whether a failure is an answer from DynamoDB (it carries an HTTP status) or no answer at all. */
const answered = (error: unknown) =>
  typeof (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode === 'number';

/** `unreachable` when nothing answers within `budgetMs`, `error` when DynamoDB answers with one. */
export async function probeTable(deps: Deps, budgetMs: number): Promise<TableState> {
  try {
    await deps.db.send(new GetCommand({ TableName: deps.table, Key: probeKey }), {
      abortSignal: AbortSignal.timeout(budgetMs),
    });
    return 'ok';
  } catch (error) {
    return answered(error) ? 'error' : 'unreachable';
  }
}
