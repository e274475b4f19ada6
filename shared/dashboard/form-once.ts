/**
 * Forms of the dashboard that create something (an endpoint, a redelivery) act once per form: the
 * form carries a random idempotency key, and one conditional PutItem claims that key (in the
 * account, the mode and the form's action) before the domain is asked, so a double submit, or two
 * racing ones, run the action once. The claim keeps what the action made (its id, a count: never
 * a secret) for 24 hours, so the second submit can point at it. A failure the domain states (a 4xx)
 * releases the key: the corrected form may be submitted again under it, as the API's
 * Idempotency-Key allows.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { getRecord } from '../db/items.ts';
import { dashboardKeys } from './keys.ts';

/** How long a form's key is kept: a page left open a day and submitted again acts again. */
const keptSeconds = 24 * 3600;

/** A form's idempotency key as the pages write it: 32 letters and digits. */
export const formKeyPattern = /^[A-Za-z0-9]{32}$/;

/** What a claimed form made, as the first submit recorded it (absent while it still runs). */
export type FormOutcome = Record<string, string>;

export type Once<T> = { first: true; value: T } | { first: false; outcome: FormOutcome | undefined };

/**
 * Runs `act` unless the form's key was claimed before: then answers what the first run recorded.
 * `outcome` is what is kept of the result (ids and counts only).
 */
export async function onceForForm<T>(
  deps: Deps,
  scope: Scope,
  action: string,
  formKey: string,
  act: () => Promise<T>,
  outcome: (value: T) => FormOutcome,
): Promise<Once<T>> {
  const key = dashboardKeys.form(scope.developerId, scope.mode, action, formKey);
  const now = deps.clock();
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: {
          ...key,
          entity: 'dashboard_form',
          developer_id: scope.developerId,
          mode: scope.mode,
          created_at: now.toISOString(),
          expires_at: Math.floor(now.getTime() / 1000) + keptSeconds,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const claimed = await getRecord<{ outcome?: FormOutcome }>(deps, key);
    return { first: false, outcome: claimed?.outcome };
  }
  let value: T;
  try {
    value = await act();
  } catch (error) {
    // Nothing was made: the key is free again for the same form, corrected.
    await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: key }));
    throw error;
  }
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: key,
      UpdateExpression: 'SET outcome = :outcome',
      ExpressionAttributeValues: { ':outcome': outcome(value) },
    }),
  );
  return { first: true, value };
}
