/**
 * Customers in the single table: one module and one key layout for the customer endpoints and for
 * the customers checkout and payment links find or create by e-mail. Each customer is its own item
 * (addresses beside it in its partition); an e-mail reservation item keeps e-mails unique in an
 * account and mode; gsi1 lists an account's customers newest first with their count in front (as
 * plans); the substring index (shared/db/search.ts) holds first names and e-mails. Every write that
 * touches these keeps them together in one transaction.
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Mode, type Scope, scopeOf } from '../core/account.ts';
import { Invalid, NotFound, RuleBroken } from '../core/errors.ts';
import { assertPageExists, type PageRequest } from '../core/pagination.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { queryEach, recordOf } from '../db/items.ts';
import { countedList, countedPage, countUpdate, recordsByKeys } from '../db/lists.ts';
import { retryOptimistic } from '../db/optimistic.ts';
import { searchIndex, searchIndexWrites, writeWithIndex } from '../db/search.ts';
import { failedConditions, named, type TransactItem, transactWrite } from '../db/transact.ts';
import {
  type Address,
  type Customer,
  cardholderNames,
  checkoutProvider,
  newCustomer,
  type PayProvider,
  searchTextsOf,
} from './customer.ts';
import { customerKeys } from './keys.ts';
import { customerMessages } from './messages.ts';
import { customerLimits } from './schemas.ts';

const notFound = () => new NotFound(customerMessages.customer_not_found);
/**
 * The e-mail is another customer's, in this account and mode: the request is invalid as it stands
 * (a 400), and a caller that meant "this customer, or a new one" reads it again.
 */
export class CustomerEmailTaken extends Invalid {
  constructor(email: string) {
    super(customerMessages.customer_email_taken, { params: { email } });
  }
}

/** A customer, in its account's list (gsi1). */
export const customerEntity = defineEntity<Customer>('customer', (customer) => ({
  ...customerKeys.customer(customer.developer_id, customer.mode, customer.id),
  ...customerKeys.inList(customer.developer_id, customer.mode, customer.created_at, customer.id),
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
  customerKeys.email(reserved.developer_id, reserved.mode, reserved.email),
);

const addressEntity = defineEntity<Address & { developer_id: number; mode: Mode }>(
  'customer_address',
  (address) => customerKeys.address(address.developer_id, address.mode, address.customer_id, address.id),
);

const searchScope = (scope: Scope) => ({ ...scope, kind: 'customer' });
const customerKey = (scope: Scope, id: string) => customerKeys.customer(scope.developerId, scope.mode, id);

/** The index entries that move a customer's search texts from `before` to `after`. */
export const customerIndexWrites = (
  deps: Deps,
  customer: Customer,
  before: Customer | undefined,
  after: Customer | undefined,
) =>
  searchIndexWrites(
    deps.table,
    searchScope(scopeOf(customer)),
    { id: customer.id, createdAt: customer.created_at },
    before ? searchTextsOf(before) : [],
    after ? searchTextsOf(after) : [],
  );

/** Where an account's customers are listed and counted (gsi1). */
const customerList = (scope: Scope) =>
  countedList(customerKeys.count(scope.developerId, scope.mode), 'customer', customerKeys.listTag);

/** Adds `by` to the account's customer count, as one item of a transaction. */
export const customerCountUpdate = (deps: Deps, scope: Scope, by: number, now: string) =>
  countUpdate(deps, customerList(scope), scope, by, now);

/** The writes that store a new customer: the record, its e-mail, its count; then its index entries. */
function creationWrites(deps: Deps, customer: Customer): { record: TransactItem[]; index: TransactItem[] } {
  return {
    record: [
      customerEmailEntity.create(deps.table, {
        email: customer.email,
        customer_id: customer.id,
        developer_id: customer.developer_id,
        mode: customer.mode,
        created_at: customer.created_at,
        updated_at: customer.updated_at,
      }),
      customerEntity.create(deps.table, customer),
      customerCountUpdate(deps, scopeOf(customer), 1, customer.created_at),
    ],
    index: customerIndexWrites(deps, customer, undefined, customer),
  };
}

/** Stores a new customer; a taken e-mail (in this account and mode) is CustomerEmailTaken. */
export async function createCustomer(deps: Deps, customer: Customer): Promise<void> {
  const writes = creationWrites(deps, customer);
  try {
    await writeWithIndex(deps, writes.record, writes.index);
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) throw new CustomerEmailTaken(customer.email);
    throw error;
  }
}

/** How many index entries checkout's transaction takes along; any beyond follow it (long texts only). */
const checkoutIndexBudget = 60;

/** Who a customer found or made by e-mail is (a cardholder at checkout, a payment link's body). */
export interface EmailCustomer {
  email: string;
  first_name: string;
  last_name: string;
  country: string | null;
}

/** A new customer for an e-mail no customer has yet: no phone or metadata. */
function customerForEmail(
  scope: Scope,
  input: EmailCustomer,
  now: Date,
  payProviders?: PayProvider[],
): Customer {
  return newCustomer(
    {
      first_name: input.first_name,
      last_name: input.last_name,
      email: input.email.toLowerCase(),
      phone: null,
      country: input.country,
      metadata: null,
    },
    { ...scope, now, ...(payProviders ? { payProviders } : {}) },
  );
}

/**
 * The customer with this e-mail, or the writes that create one, for checkout's transaction. The
 * writes are conditioned on the e-mail being free, so two checkouts racing to create the same
 * customer cannot both succeed; the loser's transaction fails and is retried, finding the winner's
 * customer. `afterCommit` holds index entries that did not fit the caller's transaction.
 */
export async function customerByEmail(
  deps: Deps,
  scope: Scope,
  input: { email: string; name: string; country: string | null },
  now: Date,
  /** The customer id customerIdByEmail found for this e-mail a moment ago (none: null), read again otherwise. */
  known?: string | null,
): Promise<{ customerId: string; writes: TransactItem[]; afterCommit: TransactItem[] }> {
  const existing = known === undefined ? await customerIdByEmail(deps, scope, input.email) : known;
  if (existing) return { customerId: existing, writes: [], afterCommit: [] };
  // The card form takes a longer name than a customer's, and one word: cardholderNames makes the
  // names the API would take (each cut at its limit on a character, never empty). The e-mail is
  // never cut, as it is who the customer is: the form took it only as an address isEmail takes.
  const customer = customerForEmail(
    scope,
    { email: input.email, ...cardholderNames(input.name), country: input.country },
    now,
    [checkoutProvider],
  );
  const writes = creationWrites(deps, customer);
  return {
    customerId: customer.id,
    writes: [...writes.record, ...writes.index.slice(0, checkoutIndexBudget)],
    afterCommit: writes.index.slice(checkoutIndexBudget),
  };
}

/**
 * The customer with this e-mail (an e-mail names one customer in an account and mode), or a new one made from
 * `input`, stored on its own (payment links). Two requests racing make one: the loser's e-mail
 * reservation, the first write, fails, and it reads the winner's customer.
 */
export function findOrCreateCustomer(deps: Deps, scope: Scope, input: EmailCustomer): Promise<Customer> {
  return retryOptimistic(
    async () => {
      const existing = await customerIdByEmail(deps, scope, input.email);
      const found = existing === undefined ? undefined : await findCustomer(deps, scope, existing);
      if (found) return found;
      const customer = customerForEmail(scope, input, deps.clock());
      const writes = creationWrites(deps, customer);
      await writeWithIndex(deps, writes.record, writes.index);
      return customer;
    },
    { tries: 3 },
  );
}

/** The id of the customer with this e-mail in the account and mode (strongly consistent), if any. */
export async function customerIdByEmail(
  deps: Deps,
  scope: Scope,
  email: string,
): Promise<string | undefined> {
  const found = await deps.db.send(
    new GetCommand({
      TableName: deps.table,
      Key: customerKeys.email(scope.developerId, scope.mode, email),
      ConsistentRead: true,
    }),
  );
  return found.Item ? String(found.Item.customer_id) : undefined;
}

/** Writes index entries left out of a committed transaction (customerByEmail's afterCommit). */
export async function writeAfterCommit(deps: Deps, writes: TransactItem[]): Promise<void> {
  if (writes.length) await writeWithIndex(deps, [], writes);
}

/** The customer (strongly consistent), or undefined. */
export function findCustomer(deps: Deps, scope: Scope, id: string): Promise<Customer | undefined> {
  return customerEntity.get(deps, customerKey(scope, id));
}

/** The customer, or 404. */
export async function getCustomer(deps: Deps, scope: Scope, id: string): Promise<Customer> {
  const customer = await findCustomer(deps, scope, id);
  if (!customer) throw notFound();
  return customer;
}

/**
 * The condition that the customer is stored at the version read (customers checkout created before
 * versions existed have none): `#version_read` names the `version` attribute.
 */
function atVersion(read: Customer): { condition: string; values?: Record<string, number> } {
  return read.version === undefined
    ? { condition: 'attribute_exists(pk) AND attribute_not_exists(#version_read)' }
    : {
        condition: 'attribute_exists(pk) AND #version_read = :version_read',
        values: { ':version_read': read.version },
      };
}

/** Sets `changes` on the customer `read` as long as it is still at the version read. */
function versionedUpdate(deps: Deps, read: Customer, changes: Partial<Customer>, now: string): TransactItem {
  const fields: Record<string, unknown> = { ...changes, updated_at: now, version: (read.version ?? 0) + 1 };
  const entries = Object.entries(fields);
  return {
    Update: {
      TableName: deps.table,
      Key: customerKey(scopeOf(read), read.id),
      UpdateExpression: `SET ${entries.map(([name]) => `#${name} = :${name}`).join(', ')}`,
      ConditionExpression: atVersion(read).condition,
      ExpressionAttributeNames: {
        ...Object.fromEntries(entries.map(([name]) => [`#${name}`, name])),
        '#version_read': 'version',
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(entries.map(([name, value]) => [`:${name}`, value])),
        ...atVersion(read).values,
      },
    },
  };
}

/**
 * Applies `changes` to the customer: a new e-mail moves its reservation (taken: 400) and the
 * index entries move with the texts, all in one transaction conditioned on the version read; a
 * concurrent change makes it read the customer again and retry.
 */
export function updateCustomer(
  deps: Deps,
  scope: Scope,
  id: string,
  changes: Partial<Customer>,
  now: Date,
): Promise<Customer> {
  return retryOptimistic(async () => {
    const read = await getCustomer(deps, scope, id);
    const after: Customer = { ...read, ...changes };
    const newEmail = changes.email !== undefined && changes.email !== read.email;
    const writes = [
      ...named('customer', versionedUpdate(deps, read, changes, now.toISOString())),
      ...(newEmail
        ? [
            ...named(
              'new email',
              customerEmailEntity.create(deps.table, {
                email: after.email,
                customer_id: id,
                developer_id: scope.developerId,
                mode: scope.mode,
                created_at: now.toISOString(),
                updated_at: now.toISOString(),
              }),
            ),
            ...named('old email', {
              Delete: {
                TableName: deps.table,
                Key: customerKeys.email(scope.developerId, scope.mode, read.email),
                ConditionExpression: 'customer_id = :id',
                ExpressionAttributeValues: { ':id': id },
              },
            }),
          ]
        : []),
    ];
    try {
      // The record's writes lead the transaction (index entries follow), so they read by name.
      await writeWithIndex(
        deps,
        writes.map(({ item }) => item),
        customerIndexWrites(deps, read, read, after),
      );
    } catch (error) {
      // The new e-mail is another customer's: a business answer (400), not a race to retry.
      if (failedConditions(error, writes).has('new email')) throw new CustomerEmailTaken(after.email);
      throw error;
    }
    return { ...after, updated_at: now.toISOString(), version: (read.version ?? 0) + 1 };
  });
}

/** Sets the customer's photo (already in the media bucket); answers the customer as stored. */
export function setCustomerPhoto(
  deps: Deps,
  scope: Scope,
  id: string,
  photo: Customer['photo'],
  now: Date,
): Promise<Customer> {
  return updateCustomer(deps, scope, id, { photo }, now);
}

/** The customer and its addresses, in one Query of its partition; NotFound without the customer. */
async function customerWithAddresses(
  deps: Deps,
  scope: Scope,
  id: string,
): Promise<{ customer: Customer; addresses: Address[] }> {
  const { pk } = customerKey(scope, id);
  let customer: Customer | undefined;
  const addresses: Address[] = [];
  await queryEach(
    deps,
    {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    },
    (item) => {
      if (item.entity === customerEntity.tag) customer = recordOf<Customer>(item);
      else if (item.entity === addressEntity.tag) addresses.push(recordOf<Address>(item));
      return true;
    },
  );
  if (!customer) throw notFound();
  addresses.sort((a, b) => a.created_at.localeCompare(b.created_at));
  return { customer, addresses };
}

/**
 * Deletes the customer with its addresses: frees its e-mail, uncounts it and drops its index
 * entries, in one transaction conditioned on the version read (a concurrent change: read again).
 */
export function deleteCustomer(deps: Deps, scope: Scope, id: string, now: Date): Promise<void> {
  return retryOptimistic(async () => {
    const { customer, addresses } = await customerWithAddresses(deps, scope, id);
    const { condition, values } = atVersion(customer);
    const writes: TransactItem[] = [
      {
        Delete: {
          TableName: deps.table,
          Key: customerKey(scope, id),
          ConditionExpression: condition,
          ExpressionAttributeNames: { '#version_read': 'version' },
          ...(values ? { ExpressionAttributeValues: values } : {}),
        },
      },
      {
        Delete: {
          TableName: deps.table,
          Key: customerKeys.email(scope.developerId, scope.mode, customer.email),
        },
      },
      customerCountUpdate(deps, scope, -1, now.toISOString()),
      ...addresses.map((address) => ({
        Delete: {
          TableName: deps.table,
          Key: customerKeys.address(scope.developerId, scope.mode, id, address.id),
        },
      })),
    ];
    await writeWithIndex(deps, writes, customerIndexWrites(deps, customer, customer, undefined));
  });
}

/** The customer's addresses, oldest first; NotFound without the customer. */
export async function listAddresses(deps: Deps, scope: Scope, id: string): Promise<Address[]> {
  return (await customerWithAddresses(deps, scope, id)).addresses;
}

/**
 * Adds an address: the customer's address count goes up in the same transaction, on the condition
 * that it is below 3, so racing requests can never store a fourth (406).
 */
export async function addAddress(deps: Deps, scope: Scope, address: Address): Promise<void> {
  try {
    await transactWrite(deps, [
      {
        Update: {
          TableName: deps.table,
          Key: customerKey(scope, address.customer_id),
          UpdateExpression: 'SET address_count = if_not_exists(address_count, :zero) + :one',
          ConditionExpression:
            'attribute_exists(pk) AND (attribute_not_exists(address_count) OR address_count < :max)',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': customerLimits.addresses },
        },
      },
      addressEntity.create(deps.table, { ...address, developer_id: scope.developerId, mode: scope.mode }),
    ]);
  } catch (error) {
    if (!conditionFailedAt(error).includes(0)) throw error;
    await getCustomer(deps, scope, address.customer_id); // 404 when the customer is gone
    throw new RuleBroken(customerMessages.customer_address_limit);
  }
}

/** Deletes one address of the customer (and counts it out); 404 for either that is absent. */
export async function deleteAddress(deps: Deps, scope: Scope, customerId: string, addressId: string) {
  try {
    await transactWrite(deps, [
      {
        Delete: {
          TableName: deps.table,
          Key: customerKeys.address(scope.developerId, scope.mode, customerId, addressId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: deps.table,
          Key: customerKey(scope, customerId),
          UpdateExpression: 'SET address_count = address_count - :one',
          ConditionExpression: 'attribute_exists(pk) AND address_count > :zero',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        },
      },
    ]);
  } catch (error) {
    if (conditionFailedAt(error).length === 0) throw error;
    await getCustomer(deps, scope, customerId);
    throw new NotFound(customerMessages.address_not_found);
  }
}

/** Customers by id, in the order given; ids since deleted are left out. */
const customersByIds = (deps: Deps, scope: Scope, ids: string[]) =>
  recordsByKeys<Customer>(
    deps,
    ids.map((id) => customerKey(scope, id)),
  );

/** The customers whose first name or e-mail contains `query`, newest first, at most `limit`. */
export async function searchCustomers(
  deps: Deps,
  scope: Scope,
  query: string,
  limit: number,
): Promise<Customer[]> {
  const hits = await searchIndex(deps, searchScope(scope), query);
  return customersByIds(
    deps,
    scope,
    hits.slice(0, limit).map((hit) => hit.id),
  );
}

/** One page of the account's customers, newest first, with how many match. */
export async function listCustomers(
  deps: Deps,
  scope: Scope,
  query: { page: PageRequest; search?: string | undefined },
): Promise<{ count: number; customers: Customer[] }> {
  if (query.search === undefined) {
    const { count, records } = await countedPage<Customer>(deps, customerList(scope), query.page);
    return { count, customers: records };
  }
  const hits = await searchIndex(deps, searchScope(scope), query.search);
  assertPageExists(hits.length, query.page);
  const offset = (query.page.page - 1) * query.page.pageSize;
  const ids = hits.slice(offset, offset + query.page.pageSize).map((hit) => hit.id);
  return { count: hits.length, customers: await customersByIds(deps, scope, ids) };
}
