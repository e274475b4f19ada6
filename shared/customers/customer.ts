/**
 * The customer: what is stored, how a request becomes one, and how it is answered. Pure functions;
 * storage is in ./repository.ts.
 */
import { randomUUID } from 'node:crypto';
import { assertModeFlags, type Mode } from '../core/account.ts';
import { imageUrl, type StoredImage } from '../media/images.ts';
import {
  type AddAddressInput,
  type AddressView,
  type CreateCustomerInput,
  type CustomerSearchView,
  type CustomerView,
  customerLimits,
  type UpdateCustomerInput,
} from './schemas.ts';

/** Who holds a customer's payment details: customers who paid through the hosted checkout. */
export interface PayProvider {
  id: string;
  name: string;
}
export const checkoutProvider: PayProvider = { id: 'cobro', name: 'cobro hosted checkout' };

/** A customer as the table keeps it (keys aside). */
export interface Customer {
  id: string;
  developer_id: number;
  mode: Mode;
  first_name: string;
  last_name: string;
  /** Lower case: unique in the account and mode. */
  email: string;
  phone: string | null;
  country: string | null;
  metadata: Record<string, unknown> | null;
  photo?: StoredImage | null;
  pay_providers?: PayProvider[];
  /** Addresses stored under the customer; a condition keeps it at 3 at most. */
  address_count?: number;
  /** Raised by every change: concurrent changes are conditioned on the version they read. */
  version?: number;
  created_at: string;
  updated_at: string;
}

export interface Address {
  id: string;
  customer_id: string;
  line1: string;
  line2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  created_at: string;
}

/** The texts customer search matches (case-insensitive substrings): first name and e-mail. */
export const searchTextsOf = (customer: Pick<Customer, 'first_name' | 'email'>) => [
  customer.first_name,
  customer.email,
];

/** A new customer from a validated request. */
export function newCustomer(
  input: CreateCustomerInput,
  context: { developerId: number; mode: Mode; now: Date; payProviders?: PayProvider[] },
): Customer {
  assertModeFlags(input, context.mode);
  const at = context.now.toISOString();
  return {
    id: randomUUID(),
    developer_id: context.developerId,
    mode: context.mode,
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email.toLowerCase(),
    phone: input.phone || null,
    country: input.country || null,
    metadata: input.metadata,
    photo: null,
    pay_providers: context.payProviders ?? [],
    address_count: 0,
    version: 1,
    created_at: at,
    updated_at: at,
  };
}

/** The fields an update sets (validated, mode checked); empty texts of optional fields clear them. */
export function customerChanges(input: UpdateCustomerInput, mode: Mode): Partial<Customer> {
  assertModeFlags(input, mode);
  const changes: Partial<Customer> = {};
  if (input.first_name !== undefined) changes.first_name = input.first_name;
  if (input.last_name !== undefined) changes.last_name = input.last_name;
  if (input.email !== undefined) changes.email = input.email.toLowerCase();
  if (input.phone !== undefined) changes.phone = input.phone || null;
  if (input.country !== undefined) changes.country = input.country || null;
  if (input.metadata !== undefined) changes.metadata = input.metadata;
  return changes;
}

/** Counts user-perceived characters as the API's limits do (valibot's maxGraphemes). */
const graphemes = new Intl.Segmenter();

/**
 * The first `max` user-perceived characters of `text`, trimmed. A cut on a UTF-16 unit could leave
 * half a surrogate pair (text the API refuses as not well-formed) or part an accent or a skin tone
 * from its letter; one on a grapheme boundary cannot.
 */
function cutToGraphemes(text: string, max: number): string {
  let end = 0;
  let count = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (++count > max) break;
    end = index + segment.length;
  }
  return text.slice(0, end).trim();
}

/**
 * A cardholder's name (the pay form takes up to 200 characters of clean one-line text) as the
 * first and last names of the customer checkout makes, held to the rules POST /v1/customers/
 * enforces (CreateCustomerSchema): each trimmed, not empty, at most `customerLimits.name`
 * characters. "Ana María Pérez" is first "Ana María", last "Pérez"; a name of one word is both, as
 * the API requires each and a cardholder of one name has no other to give. A part over the limit
 * is cut at it, on a character (cutToGraphemes): the customer keeps the start of what was typed.
 */
export function cardholderNames(fullName: string): { first_name: string; last_name: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  const last = words.at(-1) ?? '';
  const first = words.length > 1 ? words.slice(0, -1).join(' ') : last;
  return {
    first_name: cutToGraphemes(first, customerLimits.name),
    last_name: cutToGraphemes(last, customerLimits.name),
  };
}

const commonView = (customer: Customer, baseUrl: string) => ({
  id: customer.id,
  first_name: customer.first_name,
  last_name: customer.last_name,
  email: customer.email,
  phone: customer.phone ?? null,
  photo: customer.photo ? imageUrl(customer.photo, baseUrl) : null,
  country: customer.country ?? null,
  metadata: customer.metadata ?? null,
  created_on: customer.created_at,
  test: customer.mode === 'test',
});

/** GET, list, create and update. */
export const customerView = (customer: Customer, baseUrl: string): CustomerView => ({
  ...commonView(customer, baseUrl),
  developer: customer.developer_id,
});

/** The search view: `search` without `page` or `page_size`, a bare array. */
export const customerSearchView = (customer: Customer, baseUrl: string): CustomerSearchView => ({
  ...commonView(customer, baseUrl),
  developer_id: customer.developer_id,
  pay_providers: customer.pay_providers ?? [],
});

export function newAddress(input: AddAddressInput, customerId: string, now: Date): Address {
  return {
    id: randomUUID(),
    customer_id: customerId,
    line1: input.line1,
    line2: input.line2 || null,
    city: input.city || null,
    state: input.state || null,
    postal_code: input.postal_code || null,
    country: input.country || null,
    created_at: now.toISOString(),
  };
}

export const addressView = (address: Address): AddressView => ({
  id: address.id,
  line1: address.line1,
  line2: address.line2,
  city: address.city,
  state: address.state,
  postal_code: address.postal_code,
  country: address.country,
  created_on: address.created_at,
});
