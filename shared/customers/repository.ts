/**
 * Customers, as far as payments need them: found or created by e-mail (unique in an account and
 * mode) inside the transaction that records a payment. The customer endpoints will use the same
 * items.
 */

import { randomUUID } from 'node:crypto';
import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { keys } from '../db/keys.ts';

export interface Customer {
  id: string;
  developer_id: number;
  mode: Mode;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  country: string | null;
  metadata: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** "Ana María Pérez" → first "Ana María", last "Pérez"; one word is a first name. */
export function splitName(fullName: string): { first_name: string; last_name: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { first_name: words[0] ?? '', last_name: '' };
  return { first_name: words.slice(0, -1).join(' '), last_name: words.at(-1) as string };
}

/** A customer, in its account's list (gsi1). */
export const customerEntity = defineEntity<Customer>('customer', (customer) => ({
  ...keys.customer(customer.developer_id, customer.mode, customer.id),
  ...keys.customerInList(customer.developer_id, customer.mode, customer.created_at, customer.id),
}));

/** Reserves an e-mail for one customer of an account and mode (customers are unique by e-mail). */
interface CustomerEmail {
  email: string;
  customer_id: string;
  developer_id: number;
  mode: Mode;
  created_at: string;
  updated_at: string;
}
const customerEmailEntity = defineEntity<CustomerEmail>('customer_email', (reserved) =>
  keys.customerEmail(reserved.developer_id, reserved.mode, reserved.email),
);

/**
 * The customer with this e-mail, or the writes that create one. The writes are conditioned on the
 * e-mail being free, so two checkouts racing to create the same customer cannot both succeed; the
 * loser's transaction fails and is retried, finding the winner's customer.
 */
export async function customerByEmail(
  deps: Deps,
  scope: { developerId: number; mode: Mode },
  input: { email: string; name: string; country: string | null },
  now: Date,
): Promise<{ customerId: string; writes: TransactItem[] }> {
  const emailKey = keys.customerEmail(scope.developerId, scope.mode, input.email);
  const existing = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: emailKey, ConsistentRead: true }),
  );
  if (existing.Item) return { customerId: String(existing.Item.customer_id), writes: [] };
  const id = randomUUID();
  const at = now.toISOString();
  const customer: Customer = {
    id,
    developer_id: scope.developerId,
    mode: scope.mode,
    ...splitName(input.name),
    email: input.email.toLowerCase(),
    phone: null,
    country: input.country,
    metadata: null,
    created_at: at,
    updated_at: at,
  };
  return {
    customerId: id,
    writes: [
      customerEmailEntity.create(deps.table, {
        email: customer.email,
        customer_id: id,
        developer_id: scope.developerId,
        mode: scope.mode,
        created_at: at,
        updated_at: at,
      }),
      customerEntity.create(deps.table, customer),
    ],
  };
}
