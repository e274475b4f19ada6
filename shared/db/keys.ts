/**
 * Every key of the single table is built here and nowhere else.
 */

import type { Mode } from '../auth/account-context.ts';

export interface ItemKey {
  pk: string;
  sk: string;
}

/** Where an item sits in gsi1, the per-account-and-mode list index. */
export interface ListKey {
  gsi1pk: string;
  gsi1sk: string;
}

/** Everything an account owns in one mode lives under this prefix. */
const scope = (developerId: number, mode: Mode) => `ACCOUNT#${developerId}#${mode}`;

export const keys = {
  /** The account record: profile and key metadata (hashes, masks, dates). */
  account: (developerId: number): ItemKey => ({ pk: `ACCOUNT#${developerId}`, sk: 'ACCOUNT' }),
  /** Reserves an e-mail for one account (accounts are unique by e-mail). */
  accountEmail: (email: string): ItemKey => ({
    pk: `ACCOUNT_EMAIL#${email.toLowerCase()}`,
    sk: 'ACCOUNT_EMAIL',
  }),
  /** The counter that hands out integer account ids. */
  accountSequence: (): ItemKey => ({ pk: 'SEQUENCE#ACCOUNT', sk: 'SEQUENCE' }),
  /** An API key, found by the SHA-256 of the key itself: the authorizer's single GetItem. */
  apiKey: (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** OAuth client credentials, found by client id. */
  client: (clientId: string): ItemKey => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),

  /** A plan, by its key, in the account and mode that own it: another account's id finds nothing. */
  plan: (developerId: number, mode: Mode, planId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#PLAN#${planId}`,
    sk: 'PLAN',
  }),
  /** A plan's place in its account's list: newest first when read backwards. */
  planInList: (developerId: number, mode: Mode, createdAt: string, planId: string): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#PLANS`,
    gsi1sk: `PLAN#${createdAt}#${planId}`,
  }),
  /**
   * How many plans the account has in a mode. In gsi1 it sorts after every plan (`~` > `#`), so one
   * backwards Query returns the count first and then the newest plans: page 1 in one call.
   */
  planCount: (developerId: number, mode: Mode): ItemKey & ListKey => ({
    pk: `${scope(developerId, mode)}#PLANS`,
    sk: 'COUNT',
    gsi1pk: `${scope(developerId, mode)}#PLANS`,
    gsi1sk: 'PLAN~COUNT',
  }),
  /** gsi1 sort-key prefixes of the plan list: with the count, and plans alone. */
  planListPrefix: { withCount: 'PLAN', plansOnly: 'PLAN#' },

  /** A stored Idempotency-Key (D12), scoped to account and mode. */
  idempotency: (developerId: number, mode: Mode, key: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#IDEMPOTENCY#${key}`,
    sk: 'IDEMPOTENCY',
  }),

  /** A domain event, by id, and its place in the account's event list. */
  event: (eventId: string): ItemKey => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  eventInList: (developerId: number, mode: Mode, createdAt: string, eventId: string): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#EVENTS`,
    gsi1sk: `EVENT#${createdAt}#${eventId}`,
  }),
};
