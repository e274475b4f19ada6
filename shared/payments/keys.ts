/** The keys of payments. */
import type { Mode } from '../core/account.ts';
import { type ItemKey, scopePrefix } from '../db/keys.ts';

export const paymentKeys = {
  /** A payment (`pay_…`) of the account and mode. */
  payment: (developerId: number, mode: Mode, paymentId: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#PAYMENT#${paymentId}`,
    sk: 'PAYMENT',
  }),
};
