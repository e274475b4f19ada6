/** The keys of products and of their counted list. */
import type { Mode } from '../core/account.ts';
import { countedListKeys, type ItemKey, scopePrefix } from '../db/keys.ts';

const list = countedListKeys('PRODUCTS', 'PRODUCT');

export const productKeys = {
  /** A product; it stays stored, deactivated, after DELETE (payment links may name it). */
  product: (developerId: number, mode: Mode, productId: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#PRODUCT#${productId}`,
    sk: 'PRODUCT',
  }),
  inList: list.inList,
  count: list.count,
  listTag: list.tag,
};
