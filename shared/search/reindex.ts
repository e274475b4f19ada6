/**
 * Rebuilds the substring index (shared/db/search.ts) from the stored records, through the table's
 * reindex (shared/db/reindex.ts): for records written before the index existed, or an index damaged
 * by hand (`cobro search reindex`, and `cobro reindex` with every other index). Entries are plain
 * puts, so running it twice is harmless.
 * An area of its own, above every area whose records it indexes (plans, customers, products): each
 * of them gives the index writes of one record, and this reads them all.
 */
import type { Customer } from '../customers/customer.ts';
import { customerEntity, customerIndexWrites } from '../customers/repository.ts';
import type { Deps } from '../db/deps.ts';
import { recordOf } from '../db/items.ts';
import { type IndexRepair, type Reindexer, reindex } from '../db/reindex.ts';
import type { Plan } from '../plans/plan.ts';
import { nameIndexWrites, planEntity } from '../plans/repository.ts';
import type { Product } from '../products/product.ts';
import { productEntity, productIndexWrites } from '../products/repository.ts';

type IndexWrites = ReturnType<typeof nameIndexWrites>;

/** Index entries as items to put: the Puts among an entity's index writes. */
const entriesOf = (writes: IndexWrites): IndexRepair => ({
  puts: writes.flatMap((write) => (write.Put?.Item ? [write.Put.Item] : [])),
});

/** For each entity tag with searchable texts: the index entries of one stored item. */
export const searchReindexers = (deps: Deps): Record<string, Reindexer> => ({
  [planEntity.tag]: (item) => {
    const plan = recordOf<Plan>(item);
    return entriesOf(nameIndexWrites(deps, plan, [], [plan.name]));
  },
  [customerEntity.tag]: (item) => {
    const customer = recordOf<Customer>(item);
    return entriesOf(customerIndexWrites(deps, customer, undefined, customer));
  },
  // A deleted product stays stored, deactivated, and unsearchable.
  [productEntity.tag]: (item) => {
    const product = recordOf<Product>(item);
    return entriesOf(product.active ? productIndexWrites(deps, product, undefined, product) : []);
  },
});

/** Writes every searchable record's index entries; answers how many records of each tag it saw. */
export async function reindexSearch(
  deps: Deps,
): Promise<{ records: Record<string, number>; entries: number }> {
  const { records, entries } = await reindex(deps, searchReindexers(deps));
  return { records, entries };
}
