/**
 * Rebuilds the substring index (shared/db/search.ts) from the stored records: for records written
 * before the index existed, or an index damaged by hand. Operator work (`cobro search reindex`), so
 * it may Scan; no request path calls it. Entries are plain puts, so running it twice is harmless.
 * An area of its own, above every area whose records it indexes (plans, customers, products): each
 * of them gives the index writes of one record, and this reads them all.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Customer } from '../customers/customer.ts';
import { customerEntity, customerIndexWrites } from '../customers/repository.ts';
import { putAll } from '../db/batch.ts';
import type { Deps } from '../db/deps.ts';
import { recordOf } from '../db/items.ts';
import type { Plan } from '../plans/plan.ts';
import { nameIndexWrites, planEntity } from '../plans/repository.ts';
import type { Product } from '../products/product.ts';
import { productEntity, productIndexWrites } from '../products/repository.ts';

type IndexWrites = ReturnType<typeof nameIndexWrites>;

/** For each entity tag with searchable texts: the index writes of one stored item. */
const indexers = (deps: Deps): Record<string, (item: Record<string, unknown>) => IndexWrites> => ({
  [planEntity.tag]: (item) => {
    const plan = recordOf<Plan>(item);
    return nameIndexWrites(deps, plan, [], [plan.name]);
  },
  [customerEntity.tag]: (item) => {
    const customer = recordOf<Customer>(item);
    return customerIndexWrites(deps, customer, undefined, customer);
  },
  // A deleted product stays stored, deactivated, and unsearchable.
  [productEntity.tag]: (item) => {
    const product = recordOf<Product>(item);
    return product.active ? productIndexWrites(deps, product, undefined, product) : [];
  },
});

/** Writes every searchable record's index entries; answers how many records of each tag it saw. */
export async function reindexSearch(
  deps: Deps,
): Promise<{ records: Record<string, number>; entries: number }> {
  const byTag = indexers(deps);
  const tags = Object.keys(byTag);
  const records: Record<string, number> = Object.fromEntries(tags.map((tag) => [tag, 0]));
  let entries = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(
      new ScanCommand({
        TableName: deps.table,
        FilterExpression: `entity IN (${tags.map((_, i) => `:t${i}`).join(', ')})`,
        ExpressionAttributeValues: Object.fromEntries(tags.map((tag, i) => [`:t${i}`, tag])),
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    const puts: Record<string, unknown>[] = [];
    for (const item of page.Items ?? []) {
      const tag = String(item.entity);
      const indexer = byTag[tag];
      if (!indexer) continue;
      records[tag] = (records[tag] ?? 0) + 1;
      for (const write of indexer(item)) if (write.Put?.Item) puts.push(write.Put.Item);
    }
    entries += await putAll(deps, puts);
    start = page.LastEvaluatedKey;
  } while (start);
  return { records, entries };
}
