/**
 * Customers, as far as payments need them: found or created by e-mail (unique in an account and
 * mode) inside the transaction that records a payment. The customer endpoints will use the same
 * items.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Mode } from '../auth/account-context.ts';
import { keys } from '../db/keys.ts';
import type { Deps } from '../deps.ts';

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
      {
        Put: {
          TableName: deps.table,
          Item: {
            ...emailKey,
            entity: 'customer_email',
            customer_id: id,
            developer_id: scope.developerId,
            mode: scope.mode,
            created_at: at,
            updated_at: at,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: deps.table,
          Item: {
            ...keys.customer(scope.developerId, scope.mode, id),
            ...keys.customerInList(scope.developerId, scope.mode, at, id),
            entity: 'customer',
            ...customer,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
  };
}
