/** The keys of receipt links. */
import type { ItemKey } from '../db/keys.ts';

export const receiptKeys = {
  /**
   * A receipt link, found by the keyed hash of the token in its URL (never the token itself): the
   * page is opened with no account known, like a checkout session.
   */
  link: (tokenHash: string): ItemKey => ({ pk: `RECEIPT#${tokenHash}`, sk: 'RECEIPT' }),
};
