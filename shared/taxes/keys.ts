/** The keys of taxes (integer ids) and of the counter that hands the ids out. */
import type { Mode } from '../core/account.ts';
import { accountPartition, type ItemKey, type ListKey, scopePrefix } from '../db/keys.ts';

const list = (developerId: number, mode: Mode) => `${scopePrefix(developerId, mode)}#TAXES`;

export const taxKeys = {
  tax: (developerId: number, mode: Mode, taxId: number): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#TAX#${taxId}`,
    sk: 'TAX',
  }),
  inList: (developerId: number, mode: Mode, createdAt: string, taxId: number): ListKey => ({
    gsi1pk: list(developerId, mode),
    gsi1sk: `TAX#${createdAt}#${taxId}`,
  }),
  /** The gsi1 partition of the account's taxes in a mode. */
  list,
  /** One counter per account for both modes, in the account's own partition: an id names one tax. */
  sequence: (developerId: number): ItemKey => ({ pk: accountPartition(developerId), sk: 'SEQUENCE#TAX' }),
};
