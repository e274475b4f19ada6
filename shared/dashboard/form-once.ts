/**
 * A dashboard form that makes or does something (a plan, a product, a payment link, a webhook
 * endpoint, a redelivery, a portal link) acts once per form (docs/design.md#merchant-dashboard): its
 * page carries a random key made with it, and a submit first claims that key, in the account and
 * mode, with one conditional PutItem before the domain is asked. Of two submits of the same form (a
 * double click, a reload that posts again, two racing) exactly one acts; it stores what is kept of
 * its answer under the key, and the other gets that, or "busy" while the first still runs. As with
 * the API's Idempotency-Key:
 * - what is kept is what a later submit may be told (an id, a count, a time: never something a
 *   page shows once, as a signing secret or a portal link), sealed under the stage's fingerprint
 *   secret all the same, and bound to what the form acted on (`purpose`): the same key posted for
 *   another action or record answers "busy" and acts on nothing;
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
/** What a form's key must look like: another one (a tampered or expired form) is no key. */
export const isFormKey = (value: string) => formKeyPattern.test(value);

/** How long a claim blocks its key when its submit never finishes (longer than any function runs). */
const claimSeconds = 60;

const answers = (secret: string) => sealer(secret, 'dashboard form answers');

/**
 * The submit that acted (`first`, with what `act` answered), a later one (`again`, with what the
 * first kept), or one that finds the key still running or claimed for another purpose (`busy`).
 */
export type Once<T, K = T> = { kind: 'first'; value: T } | { kind: 'again'; kept: K } | { kind: 'busy' };

interface StoredForm {
  status: 'running' | 'done';
  purpose: string;
  answer?: string;
}

/**
 * Runs `act` once for the form key `form.key` (checked with isFormKey by the caller). `keep` says
 * what of its value a later submit of the same form gets (all of it unless given).
 */
export async function actOnce<T, K = T>(
  deps: Deps,
  keys: SessionKeys,
  scope: Scope,
  form: { key: string; purpose: string },
  act: () => Promise<T>,
  keep: (value: T) => K = (value) => value as unknown as K,
): Promise<Once<T, K>> {
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
    return answered<K>(deps, keys, key, form.purpose);
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
        ':answer': answers(await keys.sign()).seal(JSON.stringify(keep(value))),
        ':owner': owner,
      },
    }),
  );
  return { kind: 'first', value };
}

/** What a claimed key keeps, or busy (still running, or claimed for something else). */
async function answered<K>(
  deps: Deps,
  keys: SessionKeys,
  key: ReturnType<typeof dashboardKeys.form>,
  purpose: string,
): Promise<Once<never, K>> {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }),
  );
  const stored = Item as StoredForm | undefined;
  if (stored?.status !== 'done' || stored.purpose !== purpose || !stored.answer) return { kind: 'busy' };
  // Sealed under the secret's value then in use: the current one, or the one before a rotation.
  for (const secret of await keys.lookup()) {
    try {
      return { kind: 'again', kept: JSON.parse(answers(secret).open(stored.answer)) as K };
    } catch {
      // Not sealed under this value: try the next.
    }
  }
  return { kind: 'busy' };
}
