/** The keys of accounts and their credentials; none is scoped to a mode. */
import { accountPartition, type ItemKey } from '../db/keys.ts';

export const accountKeys = {
  /** The account record: profile and key metadata (hashes, masks, dates). */
  account: (developerId: number): ItemKey => ({ pk: accountPartition(developerId), sk: 'ACCOUNT' }),
  /** Reserves an e-mail for one account (accounts are unique by e-mail). */
  email: (email: string): ItemKey => ({
    pk: `ACCOUNT_EMAIL#${email.toLowerCase()}`,
    sk: 'ACCOUNT_EMAIL',
  }),
  /** The counter that hands out integer account ids. */
  sequence: (): ItemKey => ({ pk: 'SEQUENCE#ACCOUNT', sk: 'SEQUENCE' }),
  /** An API key, found by the SHA-256 of the key itself: the authorizer's single GetItem. */
  apiKey: (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** OAuth client credentials, found by client id. */
  client: (clientId: string): ItemKey => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),
};
