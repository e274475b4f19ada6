/** The keys of refunds: the record, and its places in the account's refund list and in its charge's. */
import type { Mode } from '../core/account.ts';
import { type ItemKey, type ListKey, type SecondListKey, scopePrefix } from '../db/keys.ts';

const list = (developerId: number, mode: Mode) => `${scopePrefix(developerId, mode)}#REFUNDS`;
const ofCharge = (developerId: number, mode: Mode, chargeId: string) =>
  `${scopePrefix(developerId, mode)}#CHARGE_REFUNDS#${chargeId}`;

export const refundKeys = {
  refund: (developerId: number, mode: Mode, refundId: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#REFUND#${refundId}`,
    sk: 'REFUND',
  }),
  inLists: (
    developerId: number,
    mode: Mode,
    chargeId: string,
    createdAt: string,
    refundId: string,
  ): ListKey & SecondListKey => ({
    gsi1pk: list(developerId, mode),
    gsi1sk: `REFUND#${createdAt}#${refundId}`,
    gsi2pk: ofCharge(developerId, mode, chargeId),
    gsi2sk: `REFUND#${createdAt}#${refundId}`,
  }),
  /** The gsi2 partition of a charge's refunds. */
  ofCharge,
  /** The gsi1 partition of the account's refunds. */
  list,
};
