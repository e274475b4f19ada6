/** The keys of the HTTP adapter's own records: stored Idempotency-Keys. */
import type { Mode } from '../core/account.ts';
import { type ItemKey, scopePrefix } from '../db/keys.ts';

export const httpKeys = {
  /** A stored Idempotency-Key, scoped to account and mode. */
  idempotency: (developerId: number, mode: Mode, key: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#IDEMPOTENCY#${key}`,
    sk: 'IDEMPOTENCY',
  }),
};
