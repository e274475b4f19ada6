/**
 * A dashboard form that creates something acts once per form (docs/design.md#merchant-dashboard):
 * its page carries a key made with it, and a submit first claims that key with one conditional
 * PutItem, so of two submits of the same form (a double click, a reload that posts again) exactly
 * one acts. The one that acted stores its answer under the key; the other gets that answer, or
 * "busy" while the first still runs. As with the API's Idempotency-Key:
 * - the answer is kept sealed under the stage's fingerprint secret (it may show something once, as
 *   a portal link), and bound to what the form acted on (`purpose`): the same key posted for
 *   another record answers "busy" and acts on nothing;
 * - a definite failure (the domain refused) frees the key, so the corrected form acts as new;
 * - a submit that never finished (a crash) holds the key until its claim lapses.
 * Keys and answers are kept as long as a session lasts: a page older than its session posts nothing.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../core/account.ts';
import { DomainError } from '../core/errors.ts';
import { randomToken } from '../core/ids.ts';
import { sealer } from '../core/seal.ts';
import type { Deps } from '../db/deps.ts';
import { dashboardKeys } from './keys.ts';
import { type SessionKeys, sessionLifetimeMs } from './session.ts';

/** A form's key: 32 characters of [A-Za-z0-9], made with the page. */
export const formKeyPattern = /^[A-Za-z0-9]{32}$/;
export const newFormKey = () => randomToken(32);

/** How long a claim blocks its key when its submit never finishes (longer than any function runs). */
const claimSeconds = 60;

const answers = (secret: string) => sealer(secret, 'dashboard form answers');

export type Once<T> = { kind: 'done'; value: T } | { kind: 'busy' };

interface StoredForm {
  status: 'running' | 'done';
  purpose: string;
  answer?: string;
}

/**
 * Runs `act` once for the form key `formKey` (checked against formKeyPattern by the caller), and
 * answers its value, the value of the submit that ran it, or `busy`.
 */
export async function actOnce<T>(
  deps: Deps,
  keys: SessionKeys,
  scope: Scope,
  form: { key: string; purpose: string },
  act: () => Promise<T>,
): Promise<Once<T>> {
  const key = dashboardKeys.form(scope.developerId, scope.mode, form.key);
  const now = deps.clock();
  const seconds = Math.floor(now.getTime() / 1000);
  const owner = randomToken(32);
  try {
    await deps.db.send(
      new PutCommand({
        TableName: deps.table,
        Item: {
          ...key,
          entity: 'dashboard_form',
          developer_id: scope.developerId,
          mode: scope.mode,
          purpose: form.purpose,
          status: 'running',
          owner,
          claimed_until: seconds + claimSeconds,
          created_at: now.toISOString(),
          expires_at: seconds + sessionLifetimeMs / 1000,
        },
        // Free, lapsed (TTL deletes lazily), or claimed by a submit that never finished.
        ConditionExpression:
          'attribute_not_exists(pk) OR expires_at < :now OR (#status = :running AND claimed_until < :now)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': seconds, ':running': 'running' },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    return answered<T>(deps, keys, key, form.purpose);
  }
  let value: T;
  try {
    value = await act();
  } catch (error) {
    // A refusal is definite: the key is free again. Anything else keeps it until the claim lapses.
    if (error instanceof DomainError) {
      await deps.db.send(
        new DeleteCommand({
          TableName: deps.table,
          Key: key,
          ConditionExpression: '#owner = :owner',
          ExpressionAttributeNames: { '#owner': 'owner' },
          ExpressionAttributeValues: { ':owner': owner },
        }),
      );
    }
    throw error;
  }
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: key,
      UpdateExpression: 'SET #status = :done, answer = :answer REMOVE claimed_until',
      ConditionExpression: '#owner = :owner',
      ExpressionAttributeNames: { '#status': 'status', '#owner': 'owner' },
      ExpressionAttributeValues: {
        ':done': 'done',
        ':answer': answers(await keys.sign()).seal(JSON.stringify(value)),
        ':owner': owner,
      },
    }),
  );
  return { kind: 'done', value };
}

/** The answer stored under a claimed key, or busy (still running, or claimed for something else). */
async function answered<T>(
  deps: Deps,
  keys: SessionKeys,
  key: ReturnType<typeof dashboardKeys.form>,
  purpose: string,
): Promise<Once<T>> {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }),
  );
  const stored = Item as StoredForm | undefined;
  if (stored?.status !== 'done' || stored.purpose !== purpose || !stored.answer) return { kind: 'busy' };
  // Sealed under the secret's value then in use: the current one, or the one before a rotation.
  for (const secret of await keys.lookup()) {
    try {
      return { kind: 'done', value: JSON.parse(answers(secret).open(stored.answer)) as T };
    } catch {
      // Not sealed under this value: try the next.
    }
  }
  return { kind: 'busy' };
}
