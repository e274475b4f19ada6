/**
 * The keys of subscriptions: the record, its places in the account's, its plan's and its customer's
 * lists, its due entry.
 */
import type { Mode } from '../core/account.ts';
import {
  type CustomerListKey,
  customerRecordsPartition,
  duePartition,
  dueSlot,
  type ItemKey,
  type ListKey,
  type SecondListKey,
  scopePrefix,
} from '../db/keys.ts';

export const subscriptionKeys = {
  /** A subscription (`sub_…`) of the account and mode. */
  subscription: (developerId: number, mode: Mode, subscriptionId: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#SUBSCRIPTION#${subscriptionId}`,
    sk: 'SUBSCRIPTION',
  }),
  /** Its place in its account's list (gsi1), newest first. */
  inList: (developerId: number, mode: Mode, createdAt: string, subscriptionId: string): ListKey => ({
    gsi1pk: `${scopePrefix(developerId, mode)}#SUBSCRIPTIONS`,
    gsi1sk: `SUBSCRIPTION#${createdAt}#${subscriptionId}`,
  }),
  /** gsi1 and gsi3 sort-key prefix of subscriptions. */
  listPrefix: 'SUBSCRIPTION#',
  /** Its place in its customer's list (gsi3), newest first, once it has a customer. */
  ofCustomer: (
    developerId: number,
    mode: Mode,
    customerId: string,
    createdAt: string,
    subscriptionId: string,
  ): CustomerListKey => ({
    gsi3pk: customerRecordsPartition(developerId, mode, customerId),
    gsi3sk: `SUBSCRIPTION#${createdAt}#${subscriptionId}`,
  }),
  /** Its place in its plan's list (gsi2), newest first. */
  ofPlan: (
    developerId: number,
    mode: Mode,
    planId: string,
    createdAt: string,
    subscriptionId: string,
  ): SecondListKey => ({
    gsi2pk: `${scopePrefix(developerId, mode)}#PLAN#${planId}#SUBSCRIPTIONS`,
    gsi2sk: `SUBSCRIPTION#${createdAt}#${subscriptionId}`,
  }),
  /**
   * When the billing step next has work for a subscription (a renewal, a trial's end, a retry):
   * one item in the billing due index, written with every change of it.
   */
  due: (subscriptionId: string, dueAt: string): ItemKey => {
    const { partition, sort } = dueSlot('BILLING', subscriptionId, dueAt);
    return { pk: partition, sk: sort };
  },
  duePartition: (shard: number) => duePartition('BILLING', shard),
};
