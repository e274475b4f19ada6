/**
 * Products in the single table. Each product is its own item, listed newest first in gsi1 with the
 * count in front (as plans); names and SKUs are in the substring index. A deleted product keeps its
 * item, deactivated and out of the list, the count and the index, for the payment links naming it.
 */
import type { QueryCommandInput, TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../core/account.ts';
import { NotFound } from '../core/errors.ts';
import { assertPageExists, type PageRequest } from '../core/pagination.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getItems } from '../db/get-items.ts';
import { getRecord, queryEach, recordOf } from '../db/items.ts';
import { keys } from '../db/keys.ts';
import { searchIndex, searchIndexWrites, writeWithIndex } from '../db/search.ts';
import { conditionFailedAt } from '../db/transact.ts';
import { matchesFilters, type Product, searchTextsOf } from './product.ts';
import type { ProductFilters, ProductListQuery } from './schemas.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const notFound = () => new NotFound('product_not_found');

/** A product, in its account's list (gsi1) while it is active. */
export const productEntity = defineEntity<Product>('product', (product) => ({
  ...keys.product(product.developer_id, product.mode, product.id),
  ...(product.active
    ? keys.productInList(product.developer_id, product.mode, product.created_at, product.id)
    : {}),
}));

const scopeOf = (product: Product): Scope => ({ developerId: product.developer_id, mode: product.mode });
const searchScope = (scope: Scope) => ({ ...scope, kind: 'product' });
const productKey = (scope: Scope, id: string) => keys.product(scope.developerId, scope.mode, id);

/** The index entries that move a product's name and SKU from `before` to `after`. */
export const productIndexWrites = (deps: Deps, product: Product, before?: Product, after?: Product) =>
  searchIndexWrites(
    deps.table,
    searchScope(scopeOf(product)),
    { id: product.id, createdAt: product.created_at },
    before ? searchTextsOf(before) : [],
    after ? searchTextsOf(after) : [],
  );

/** Adds `by` to the account's product count, as one item of a transaction. */
export function productCountUpdate(deps: Deps, scope: Scope, by: number, now: string): TransactItem {
  const { pk, sk, gsi1pk, gsi1sk } = keys.productCount(scope.developerId, scope.mode);
  return {
    Update: {
      TableName: deps.table,
      Key: { pk, sk },
      UpdateExpression:
        'ADD product_count :by SET gsi1pk = :gpk, gsi1sk = :gsk, entity = :entity, developer_id = :dev, #mode = :mode, updated_at = :now, created_at = if_not_exists(created_at, :now)',
      ExpressionAttributeNames: { '#mode': 'mode' },
      ExpressionAttributeValues: {
        ':by': by,
        ':gpk': gsi1pk,
        ':gsk': gsi1sk,
        ':entity': 'product_count',
        ':dev': scope.developerId,
        ':mode': scope.mode,
        ':now': now,
      },
    },
  };
}

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
 * Replaces the stored product `read` by `next` (same id), moving its index entries, on the
 * condition that it is still active at the version read. False when another change came first.
 */
export async function replaceProduct(deps: Deps, read: Product, next: Product): Promise<boolean> {
  const put: TransactItem = {
    Put: {
      TableName: deps.table,
      Item: productEntity.item(next),
      ConditionExpression: 'attribute_exists(pk) AND active = :true AND version = :version',
      ExpressionAttributeValues: { ':true': true, ':version': read.version },
    },
  };
  try {
    await writeWithIndex(deps, [put], productIndexWrites(deps, read, read, next));
    return true;
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) return false;
    throw error;
  }
}

/** Deactivates the product: out of the list, the count and the index; the item stays. */
export async function deactivateProduct(deps: Deps, scope: Scope, id: string, now: Date): Promise<void> {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const read = await getProduct(deps, scope, id);
    const at = now.toISOString();
    const next: Product = {
      ...read,
      active: false,
      deleted_at: at,
      updated_at: at,
      version: read.version + 1,
    };
    try {
      await writeWithIndex(
        deps,
        [
          {
            Put: {
              TableName: deps.table,
              Item: productEntity.item(next),
              ConditionExpression: 'attribute_exists(pk) AND active = :true AND version = :version',
              ExpressionAttributeValues: { ':true': true, ':version': read.version },
            },
          },
          productCountUpdate(deps, scope, -1, at),
        ],
        productIndexWrites(deps, read, read, undefined),
      );
      return;
    } catch (error) {
      if (!conditionFailedAt(error).includes(0)) throw error;
    }
  }
  throw new Error('product changed by other requests 10 times in a row');
}

/** DynamoDB filter for the list filters but `search`. */
function filterOf(
  filters: ProductFilters,
): Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const add = (clause: string, attribute: string, value: unknown, placeholder: string) => {
    clauses.push(clause.replace('#a', `#${attribute}`).replace(':v', `:${placeholder}`));
    names[`#${attribute}`] = attribute;
    values[`:${placeholder}`] = value;
  };
  if (filters.physical !== undefined) add('#a = :v', 'is_physical', filters.physical, 'physical');
  if (filters.stockMin !== undefined) add('#a >= :v', 'stock', filters.stockMin, 'stock_min');
  if (filters.stockMax !== undefined) add('#a <= :v', 'stock', filters.stockMax, 'stock_max');
  if (filters.priceMin !== undefined) add('#a >= :v', 'price_scaled', filters.priceMin, 'price_min');
  if (filters.priceMax !== undefined) add('#a <= :v', 'price_scaled', filters.priceMax, 'price_max');
  return clauses.length
    ? {
        FilterExpression: clauses.join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }
    : {};
}

const hasFilters = (filters: ProductFilters) => Object.values(filters).some((value) => value !== undefined);

/** Counts matches and keeps the page asked for. */
function pageOfMatches(page: PageRequest) {
  const offset = (page.page - 1) * page.pageSize;
  const result = { count: 0, products: [] as Product[] };
  return {
    visit(product: Product) {
      if (result.count >= offset && result.products.length < page.pageSize) result.products.push(product);
      result.count += 1;
    },
    done() {
      assertPageExists(result.count, page);
      return result;
    },
  };
}

/** With `search`: the index gives the matches newest first; their records are read 100 at a time. */
async function listBySearch(
  deps: Deps,
  scope: Scope,
  page: PageRequest,
  filters: ProductFilters & { search: string },
) {
  const hits = await searchIndex(deps, searchScope(scope), filters.search);
  const others = { ...filters, search: undefined };
  const read = async (ids: string[]) => {
    const found: Product[] = [];
    for (let start = 0; start < ids.length; start += 100) {
      const items = await getItems(
        deps,
        ids.slice(start, start + 100).map((id) => productKey(scope, id)),
      );
      for (const item of items) if (item) found.push(recordOf<Product>(item));
    }
    return found.filter((product) => product.active);
  };
  if (!hasFilters(others)) {
    // The search alone: the index has the count and the order; only the page is read.
    assertPageExists(hits.length, page);
    const offset = (page.page - 1) * page.pageSize;
    return {
      count: hits.length,
      products: await read(hits.slice(offset, offset + page.pageSize).map((hit) => hit.id)),
    };
  }
  const matches = pageOfMatches(page);
  for (const product of await read(hits.map((hit) => hit.id)))
    if (matchesFilters(product, others)) matches.visit(product);
  return matches.done();
}

/** One page of the account's active products, newest first, with how many match (D9). */
export async function listProducts(
  deps: Deps,
  scope: Scope,
  query: ProductListQuery,
): Promise<{ count: number; products: Product[] }> {
  const { page, filters } = query;
  if (filters.search !== undefined)
    return listBySearch(deps, scope, page, { ...filters, search: filters.search });
  const { gsi1pk } = keys.productCount(scope.developerId, scope.mode);
  if (hasFilters(filters)) {
    const matches = pageOfMatches(page);
    const filter = filterOf(filters);
    await queryEach(
      deps,
      {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
        ...filter,
        ExpressionAttributeValues: {
          ':pk': gsi1pk,
          ':prefix': keys.productListPrefix.productsOnly,
          ...filter.ExpressionAttributeValues,
        },
        ScanIndexForward: false,
      },
      (item) => {
        matches.visit(recordOf<Product>(item));
        return true;
      },
    );
    return matches.done();
  }
  // Unfiltered: the count and page 1 in one Query; a deeper page reads on past the earlier ones.
  const offset = (page.page - 1) * page.pageSize;
  let count: number | undefined;
  let seen = 0;
  const products: Product[] = [];
  await queryEach(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': keys.productListPrefix.withCount },
      ScanIndexForward: false,
    },
    (item) => {
      if (item.entity === 'product_count') {
        count = Number(item.product_count ?? 0);
        assertPageExists(count, page);
        return true;
      }
      count ??= 0;
      if (seen >= offset) products.push(recordOf<Product>(item));
      seen += 1;
      return products.length < page.pageSize;
    },
    () => (count === undefined ? page.pageSize + 1 : offset + page.pageSize - seen),
  );
  count ??= 0;
  assertPageExists(count, page);
  return { count, products };
}
