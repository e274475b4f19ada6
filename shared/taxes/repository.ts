/** Taxes in the single table: an item each, listed in gsi1, ids from a per-account counter. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getItems } from '../db/get-items.ts';
import { queryEach, recordOf } from '../db/items.ts';
import { transactWrite } from '../db/transact.ts';
import { taxKeys } from './keys.ts';
import type { Tax } from './tax.ts';

export const taxEntity = defineEntity<Tax>('tax', (tax) => ({
  ...taxKeys.tax(tax.developer_id, tax.mode, tax.id),
  ...taxKeys.inList(tax.developer_id, tax.mode, tax.created_at, tax.id),
}));

/** Stores a new tax under the account's next id (one counter for both modes: an id names one tax). */
export async function createTax(
  deps: Deps,
  scope: Scope,
  input: { name: string; value_scaled: number },
): Promise<Tax> {
  const counter = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: taxKeys.sequence(scope.developerId),
      UpdateExpression: 'ADD tax_sequence :one SET entity = :entity',
      ExpressionAttributeValues: { ':one': 1, ':entity': 'tax_sequence' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const tax: Tax = {
    id: Number(counter.Attributes?.tax_sequence),
    developer_id: scope.developerId,
    mode: scope.mode,
    name: input.name,
    value_scaled: input.value_scaled,
    created_at: deps.clock().toISOString(),
  };
  await transactWrite(deps, [taxEntity.create(deps.table, tax)]);
  return tax;
}

/** The account's taxes in a mode, newest first. */
export async function listTaxes(deps: Deps, scope: Scope): Promise<Tax[]> {
  const taxes: Tax[] = [];
  await queryEach(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': taxKeys.list(scope.developerId, scope.mode) },
      ScanIndexForward: false,
    },
    (item) => {
      taxes.push(recordOf<Tax>(item));
      return true;
    },
  );
  return taxes;
}

/** The taxes with these ids in the account and mode, in the order asked; undefined where none is. */
export async function taxesByIds(deps: Deps, scope: Scope, ids: number[]): Promise<(Tax | undefined)[]> {
  if (ids.length === 0) return [];
  const items = await getItems(
    deps,
    ids.map((id) => taxKeys.tax(scope.developerId, scope.mode, id)),
  );
  return items.map((item) => (item ? recordOf<Tax>(item) : undefined));
}
