/** The keys of customers, their addresses and the items that keep their e-mails unique. */
import type { Mode } from '../core/account.ts';
import { countedListKeys, type ItemKey, scopePrefix } from '../db/keys.ts';

const list = countedListKeys('CUSTOMERS', 'CUSTOMER');
const customerPartition = (developerId: number, mode: Mode, customerId: string) =>
  `${scopePrefix(developerId, mode)}#CUSTOMER#${customerId}`;

export const customerKeys = {
  /** A customer of the account and mode. */
  customer: (developerId: number, mode: Mode, customerId: string): ItemKey => ({
    pk: customerPartition(developerId, mode, customerId),
    sk: 'CUSTOMER',
  }),
  inList: list.inList,
  count: list.count,
  listTag: list.tag,
  /** A customer's address, in the customer's own partition (one Query reads both). */
  address: (developerId: number, mode: Mode, customerId: string, addressId: string): ItemKey => ({
    pk: customerPartition(developerId, mode, customerId),
    sk: `ADDRESS#${addressId}`,
  }),
  addressPrefix: 'ADDRESS#',
  /** Keeps a customer's e-mail unique in the account and mode. */
  email: (developerId: number, mode: Mode, email: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#CUSTOMER_EMAIL#${email.toLowerCase()}`,
    sk: 'CUSTOMER_EMAIL',
  }),
};
