/**
 * Every key of the single table is built here and nowhere else.
 */

export interface ItemKey {
  pk: string;
  sk: string;
}

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
};
