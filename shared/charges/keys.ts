/** The keys of charges: the record, the account's payment list, its customer's list, the payout index. */
import type { Mode } from '../core/account.ts';
import {
  type CustomerListKey,
  customerRecordsPartition,
  type ItemKey,
  type ListKey,
  type SecondListKey,
  scopePrefix,
  shardOf,
} from '../db/keys.ts';

/** How many gsi2 partitions hold the charges waiting for payout. */
export const payoutShards = 8;

const payoutPartition = (shard: number) => `PAYOUT_DUE#${shard}`;

export const chargeKeys = {
  /** A charge (`ch_…`) of the account and mode. */
  charge: (developerId: number, mode: Mode, chargeId: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#CHARGE#${chargeId}`,
    sk: 'CHARGE',
  }),
  /** Its place in the account's payment list (newest first). */
  inList: (developerId: number, mode: Mode, createdAt: string, chargeId: string): ListKey => ({
    gsi1pk: `${scopePrefix(developerId, mode)}#CHARGES`,
    gsi1sk: `CHARGE#${createdAt}#${chargeId}`,
  }),
  /** gsi1 sort key bound for charges created before a time (`created_before`). */
  before: (createdBefore: string) => `CHARGE#${createdBefore}`,
  listPrefix: 'CHARGE#',
  /** Its place in its customer's list (gsi3), newest first; a charge with no customer has none. */
  ofCustomer: (
    developerId: number,
    mode: Mode,
    customerId: string,
    createdAt: string,
    chargeId: string,
  ): CustomerListKey => ({
    gsi3pk: customerRecordsPartition(developerId, mode, customerId),
    gsi3sk: `CHARGE#${createdAt}#${chargeId}`,
  }),
  /**
   * A live charge waiting to be paid out, in gsi2 (sparse: the attributes go when it is paid out).
   * Spread over `payoutShards` partitions by charge id so no single partition takes every charge.
   */
  payoutDue: (chargeId: string, dueAt: string): SecondListKey => ({
    gsi2pk: payoutPartition(shardOf(chargeId, payoutShards)),
    gsi2sk: `${dueAt}#${chargeId}`,
  }),
  payoutPartition,
};
