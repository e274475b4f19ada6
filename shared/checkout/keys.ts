/** The keys of hosted checkout sessions. */
import type { ItemKey } from '../db/keys.ts';

export const checkoutKeys = {
  /** A session, found by the secret token in its URL (no account known yet). */
  session: (token: string): ItemKey => ({ pk: `CHECKOUT#${token}`, sk: 'CHECKOUT' }),
};
