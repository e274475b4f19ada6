/** Rules about an account's profile that several areas show: the merchant's name and statement text. */
import type { AccountProfile } from './repository.ts';

type Merchant = (AccountProfile & { name?: string }) | undefined;

/** The name a cardholder sees: the company name an operator set, else the account's name. */
export function merchantName(account: Merchant): string {
  return account?.company_name ?? account?.name ?? '';
}

/** The longest text a card statement shows (the card networks' limit). */
export const statementDescriptorLimit = 22;

/**
 * What the card statement shows: the operator's statement descriptor, else the merchant's name cut
 * to the statement's limit by code points, never inside a character (an emoji is two UTF-16 units).
 */
export function statementDescriptor(account: Merchant): string {
  return (
    account?.statement_descriptor ?? [...merchantName(account)].slice(0, statementDescriptorLimit).join('')
  );
}
