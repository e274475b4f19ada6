/** The keys of customer portal links. */
import type { ItemKey } from '../db/keys.ts';

export const portalKeys = {
  /**
   * A portal link, found by the keyed hash of the token in its URL (never the token itself): the
   * page is opened with no account known, like a checkout session.
   */
  link: (tokenHash: string): ItemKey => ({ pk: `PORTAL#${tokenHash}`, sk: 'PORTAL' }),
  /** A cancel waiting for its confirmation, beside the link it was asked from: one per subscription. */
  cancel: (tokenHash: string, subscriptionId: string): ItemKey => ({
    pk: `PORTAL#${tokenHash}`,
    sk: `CANCEL#${subscriptionId}`,
  }),
};
