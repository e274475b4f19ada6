/** The keys of what connectors tell cobro: each Stripe event taken once, and the disputes they report. */
import type { Mode } from '../core/account.ts';
import { type ItemKey, type ListKey, scopePrefix } from '../db/keys.ts';

export const connectorKeys = {
  /** A Stripe event an account's mode took: its second arrival is recognised and changes nothing. */
  stripeEvent: (developerId: number, mode: Mode, eventId: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#STRIPE_EVENT#${eventId}`,
    sk: 'STRIPE_EVENT',
  }),
  /** A dispute of one of the account's charges, by the acquirer's id. */
  dispute: (developerId: number, mode: Mode, disputeId: string): ItemKey => ({
    pk: `${scopePrefix(developerId, mode)}#DISPUTE#${disputeId}`,
    sk: 'DISPUTE',
  }),
  /** Its place in its charge's disputes (gsi1), newest first. */
  disputeOfCharge: (
    developerId: number,
    mode: Mode,
    chargeId: string,
    createdAt: string,
    disputeId: string,
  ): ListKey => ({
    gsi1pk: `${scopePrefix(developerId, mode)}#CHARGE_DISPUTES#${chargeId}`,
    gsi1sk: `${createdAt}#${disputeId}`,
  }),
};
