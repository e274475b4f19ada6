/**
 * Straight to the table, for what the API does not show: the events an account's actions stored,
 * and stored items changed in place as time or an older version would have left them.
 */
import { QueryCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { attemptKeys } from '../../shared/attempts/keys.ts';
import { checkoutKeys } from '../../shared/checkout/keys.ts';
import type { Mode } from '../../shared/core/account.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import type { ItemKey } from '../../shared/db/keys.ts';
import { eventKeys } from '../../shared/events/keys.ts';
import { useLocalEnvironment } from './stack.ts';

/** The event items stored for an account in a mode (oldest first), whole. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of the stored items
export async function storedEventItems(developerId: number, mode: Mode): Promise<Record<string, any>[]> {
  useLocalEnvironment();
  const deps = makeDeps();
  const stored = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': eventKeys.inList(developerId, mode, '', '').gsi1pk },
    }),
  );
  return stored.Items ?? [];
}

/** Updates a stored item in place; `update` is the UpdateItem request without table and key. */
export async function updateStored(
  key: ItemKey,
  update: Omit<UpdateCommandInput, 'TableName' | 'Key'>,
): Promise<void> {
  useLocalEnvironment();
  const deps = makeDeps();
  await deps.db.send(new UpdateCommand({ TableName: deps.table, Key: key, ...update }));
}

/** Sets attributes of a stored checkout session, which must exist. */
export function setCheckout(token: string, attributes: Record<string, unknown>): Promise<void> {
  const names = Object.keys(attributes);
  return updateStored(checkoutKeys.session(token), {
    UpdateExpression: `SET ${names.map((name) => `${name} = :${name}`).join(', ')}`,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: Object.fromEntries(names.map((name) => [`:${name}`, attributes[name]])),
  });
}

/**
 * Ends the lease of an open attempt now, as if its call had stopped long ago: recovery (and a
 * billing run) may then take it. The recovery index moves with it.
 */
export function expireLease(attemptId: string): Promise<void> {
  const past = new Date(Date.now() - 1000).toISOString();
  const { gsi2pk, gsi2sk } = attemptKeys.recovery(attemptId, past);
  return updateStored(attemptKeys.attempt(attemptId), {
    UpdateExpression: 'SET recover_at = :past, gsi2pk = :pk, gsi2sk = :sk',
    ConditionExpression: 'attribute_exists(recover_at) AND recover_at <> :none',
    ExpressionAttributeValues: { ':past': past, ':pk': gsi2pk, ':sk': gsi2sk, ':none': null },
  });
}
