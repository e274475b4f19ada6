/**
 * A create form of the dashboard acts once per form (docs/design.md#merchant-dashboard): each page
 * that shows the form gives it a random key, and the first submit claims that key, in the account
 * and mode, with one conditional PutItem before anything is created. A second submit of the same
 * form (a double click, a reload that posts again) finds the claim: once the first is done it gets
 * the same result (the id of what was created) and creates nothing; while the first still runs it
 * is 409. As with an Idempotency-Key on the API:
 * - a definite refusal (the domain's 4xx: a field the create schema refuses) releases the key, so the
 *   corrected form, which keeps its key, runs as new;
 * - a run that never finished (a crash, a timeout) holds the key until its claim lapses.
 * A claim is kept a day, then the table's TTL removes it.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Scope } from '../core/account.ts';
import { Conflict, DomainError } from '../core/errors.ts';
import { randomToken } from '../core/ids.ts';
import { coreMessages } from '../core/messages.ts';
import type { Deps } from '../db/deps.ts';
import { dashboardKeys } from './keys.ts';

/** How long a claim blocks its key when its submit never finishes (longer than any function runs). */
const claimSeconds = 60;
/** How long a done form answers a resubmit with its first result. */
const keptSeconds = 24 * 60 * 60;

/** A new form's key: 32 random letters and digits. */
export const newFormKey = () => randomToken(32);
/** What a form's key must look like: another one (a tampered form) is no key. */
export const isFormKey = (value: string) => /^[A-Za-z0-9]{32}$/.test(value);

interface Claimed {
  status: 'running' | 'done';
  result?: string;
}

/**
 * Runs `act` once for this form key in this account and mode and gives its result (an id); a second
 * submit of a form already done gives the first result without running `act`. 409 (Conflict) while
 * the first submit still runs. A DomainError from `act` releases the key and is thrown on.
 */
export async function oncePerForm(
  deps: Deps,
  scope: Scope,
  formKey: string,
  act: () => Promise<string>,
): Promise<{ result: string; again: boolean }> {
  const key = dashboardKeys.formSubmit(scope.developerId, scope.mode, formKey);
  const owner = randomUUID();
  const now = deps.clock();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: {
          ...key,
          entity: 'dashboard_form',
          developer_id: scope.developerId,
          mode: scope.mode,
          owner,
          status: 'running',
          claimed_until: nowSeconds + claimSeconds,
          created_at: now.toISOString(),
          expires_at: nowSeconds + keptSeconds,
        },
        // Free, lapsed (TTL deletes lazily), or claimed by a submit that never finished.
        ConditionExpression:
          'attribute_not_exists(pk) OR expires_at < :now OR (#status = :running AND claimed_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':running': 'running' },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException) || !error.Item) throw error;
    const held = unmarshall(error.Item) as Claimed;
    if (held.status === 'done' && held.result) return { result: held.result, again: true };
    throw new Conflict(coreMessages.idempotency_in_progress);
  }
  const owned = {
    TableName: deps.table,
    Key: key,
    ConditionExpression: '#owner = :owner',
  };
  let result: string;
  try {
    result = await act();
  } catch (error) {
    if (error instanceof DomainError) {
      await deps.db
        .send(
          new DeleteCommand({
            ...owned,
            ExpressionAttributeNames: { '#owner': 'owner' },
            ExpressionAttributeValues: { ':owner': owner },
          }),
        )
        .catch((failure: unknown) => {
          if (!(failure instanceof ConditionalCheckFailedException)) throw failure;
        });
    }
    throw error;
  }
  await deps.db.send(
    new UpdateCommand({
      ...owned,
      UpdateExpression: 'SET #status = :done, #result = :result REMOVE claimed_until',
      ExpressionAttributeNames: { '#owner': 'owner', '#status': 'status', '#result': 'result' },
      ExpressionAttributeValues: { ':owner': owner, ':done': 'done', ':result': result },
    }),
  );
  return { result, again: false };
}
