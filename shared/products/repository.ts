/**
 * Products in the single table. Each product is its own item, listed newest first in gsi1 with the
 * count in front (as plans); names and SKUs are in the substring index. A deleted product keeps its
 * item, deactivated and out of the list, the count and the index, for the payment links naming it.
 */
import { type Scope, scopeOf } from '../core/account.ts';
import { NotFound } from '../core/errors.ts';
import { assertPageExists, type PageRequest } from '../core/pagination.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getRecord } from '../db/items.ts';
import {
  type AttributeFilter,
  countedList,
  countedPage,
  countUpdate,
  filteredRecords,
  pageOfMatches,
  recordsByKeys,
} from '../db/lists.ts';
import { retryOptimistic } from '../db/optimistic.ts';
import { searchIndex, searchIndexWrites, writeWithIndex } from '../db/search.ts';
import type { TransactItem } from '../db/transact.ts';
import { productKeys } from './keys.ts';
import { productMessages } from './messages.ts';
import { matchesFilters, type Product, searchTextsOf } from './product.ts';
import type { ProductFilters, ProductListQuery } from './schemas.ts';

const notFound = () => new NotFound(productMessages.product_not_found);

/** A product, in its account's list (gsi1) while it is active. */
export const productEntity = defineEntity<Product>('product', (product) => ({
  ...productKeys.product(product.developer_id, product.mode, product.id),
  ...(product.active
    ? productKeys.inList(product.developer_id, product.mode, product.created_at, product.id)
    : {}),
}));

const searchScope = (scope: Scope) => ({ ...scope, kind: 'product' });
const productKey = (scope: Scope, id: string) => productKeys.product(scope.developerId, scope.mode, id);

/** The index entries that move a product's name and SKU from `before` to `after`. */
export const productIndexWrites = (deps: Deps, product: Product, before?: Product, after?: Product) =>
  searchIndexWrites(
    deps.table,
    searchScope(scopeOf(product)),
    { id: product.id, createdAt: product.created_at },
    before ? searchTextsOf(before) : [],
    after ? searchTextsOf(after) : [],
  );

/** Where an account's active products are listed and counted (gsi1). */
const productList = (scope: Scope) =>
  countedList(productKeys.count(scope.developerId, scope.mode), 'product', productKeys.listTag);

/** Adds `by` to the account's product count, as one item of a transaction. */
export const productCountUpdate = (deps: Deps, scope: Scope, by: number, now: string) =>
  countUpdate(deps, productList(scope), scope, by, now);

/** Stores a new product, counts it and indexes its name and SKU, in one transaction. */
export async function createProduct(deps: Deps, product: Product): Promise<void> {
  await writeWithIndex(
    deps,
    [
      productEntity.create(deps.table, product),
      productCountUpdate(deps, scopeOf(product), 1, product.created_at),
    ],
    productIndexWrites(deps, product, undefined, product),
  );
}

/** The active product, or 404 (absent, another account's or mode's, or deleted). */
export async function getProduct(deps: Deps, scope: Scope, id: string): Promise<Product> {
  const product = await getRecord<Product>(deps, productKey(scope, id));
  if (!product?.active) throw notFound();
  return product;
}

/** The product even when deleted (deactivated): what payment links that name it read. */
export function getProductForLink(deps: Deps, scope: Scope, id: string): Promise<Product | undefined> {
  return getRecord<Product>(deps, productKey(scope, id));
}

/**
 * Reads the active product, makes `change(read)` of it and stores that in one transaction with its
 * index entries (and, when it deactivates the product, its uncounting), on the condition that the
 * product is still active at the version read; a concurrent change makes it read again.
 */
export function changeProduct(
  deps: Deps,
  scope: Scope,
  id: string,
  change: (read: Product) => Product,
): Promise<Product> {
  return retryOptimistic(async () => {
    const read = await getProduct(deps, scope, id);
    const next = change(read);
    const put: TransactItem = {
      Put: {
        TableName: deps.table,
        Item: productEntity.item(next),
        ConditionExpression: 'attribute_exists(pk) AND active = :true AND version = :version',
        ExpressionAttributeValues: { ':true': true, ':version': read.version },
      },
    };
    const uncount = next.active ? [] : [productCountUpdate(deps, scope, -1, next.updated_at)];
    await writeWithIndex(
      deps,
      [put, ...uncount],
      productIndexWrites(deps, read, read, next.active ? next : undefined),
    );
    return next;
  });
}

/** Deactivates the product: out of the list, the count and the index; the item stays. */
export function deactivateProduct(deps: Deps, scope: Scope, id: string, now: Date): Promise<Product> {
  const at = now.toISOString();
  return changeProduct(deps, scope, id, (read) => ({
    ...read,
    active: false,
    deleted_at: at,
    updated_at: at,
    version: read.version + 1,
  }));
}

/** The list filters but `search`, as a DynamoDB filter (all combine with AND). */
const filterOf = (filters: ProductFilters): AttributeFilter => [
  ['=', 'is_physical', filters.physical],
  ['>=', 'stock', filters.stockMin],
  ['<=', 'stock', filters.stockMax],
  ['>=', 'price_scaled', filters.priceMin],
  ['<=', 'price_scaled', filters.priceMax],
];

const hasFilters = (filters: ProductFilters) => Object.values(filters).some((value) => value !== undefined);

/** Active products by id, in the order given. */
const activeByIds = async (deps: Deps, scope: Scope, ids: string[]) =>
  (
    await recordsByKeys<Product>(
      deps,
      ids.map((id) => productKey(scope, id)),
    )
  ).filter((product) => product.active);

/**
 * With `search`: the index gives the matches newest first, so what is read grows with them. The
 * search alone reads only the page's products; with other filters every match is read and filtered.
 */
async function listBySearch(
  deps: Deps,
  scope: Scope,
  page: PageRequest,
  filters: ProductFilters & { search: string },
) {
  const ids = (await searchIndex(deps, searchScope(scope), filters.search)).map((hit) => hit.id);
  const others = { ...filters, search: undefined };
  if (!hasFilters(others)) {
    assertPageExists(ids.length, page);
    const offset = (page.page - 1) * page.pageSize;
    return {
      count: ids.length,
      products: await activeByIds(deps, scope, ids.slice(offset, offset + page.pageSize)),
    };
  }
  const matches = pageOfMatches<Product>(page);
  for (const product of await activeByIds(deps, scope, ids))
    if (matchesFilters(product, others)) matches.visit(product);
  assertPageExists(matches.result.count, page);
  return { count: matches.result.count, products: matches.result.records };
}

/** One page of the account's active products, newest first, with how many match. */
export async function listProducts(
  deps: Deps,
  scope: Scope,
  query: ProductListQuery,
): Promise<{ count: number; products: Product[] }> {
  const { page, filters } = query;
  if (filters.search !== undefined)
    return listBySearch(deps, scope, page, { ...filters, search: filters.search });
  if (hasFilters(filters)) {
    const matches = pageOfMatches<Product>(page);
    await filteredRecords<Product>(deps, productList(scope), filterOf(filters), matches.visit);
    assertPageExists(matches.result.count, page);
    return { count: matches.result.count, products: matches.result.records };
  }
  const { count, records } = await countedPage<Product>(deps, productList(scope), page);
  return { count, products: records };
}
