/**
 * Accounts and their credentials in the single table. Keys and client secrets are stored only as
 * hashes; the plaintext leaves this module once, in the answer of the call that made it.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { connectionCreate, newConnection, simulatedLiveAllowed } from '../acquirer/connection.ts';
import type { Mode } from '../core/account.ts';
import { Conflict, NotFound } from '../core/errors.ts';
import type { Lang } from '../core/messages.ts';
import { conditionFailedAt } from '../db/conditions.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { transactWrite } from '../db/transact.ts';
import { type EventDetail, eventWrite } from '../events/event.ts';
import {
  generateApiKey,
  generateClientId,
  generateClientSecret,
  hashSecret,
  isClientId,
  maskKey,
  modeOfKey,
} from './credentials.ts';
import { apiKeyRotated } from './events.ts';
import { accountKeys } from './keys.ts';
import { accountMessages } from './messages.ts';

/** What every record of an account carries besides its own fields. */
interface Owned {
  developer_id: number;
  created_at: string;
  updated_at: string;
}

/** The account record: profile and key metadata (hashes, masks, dates). */
const accountEntity = defineEntity<Account>('account', (account) =>
  accountKeys.account(account.developer_id),
);
/** Reserves an e-mail for one account (accounts are unique by e-mail). */
const accountEmailEntity = defineEntity<Owned & { email: string }>('account_email', (reserved) =>
  accountKeys.email(reserved.email),
);
/** Finds an account and mode by an API key's keyed hash. */
const apiKeyEntity = defineEntity<Owned & { hash: string; mode: Mode }>('api_key', (apiKey) =>
  accountKeys.apiKey(apiKey.hash),
);
/** Finds an account by its OAuth client id; holds the client secret's keyed hash. */
const clientEntity = defineEntity<Owned & { client_id: string; secret_hash: string }>('client', (client) =>
  accountKeys.client(client.client_id),
);

export interface KeyInfo {
  hash: string;
  masked: string;
  created_at: string;
}

/**
 * The profile an operator sets (`accounts update`); plans show it as company_name, page, image_dev,
 * statement text.
 */
export interface AccountProfile {
  company_name?: string;
  page?: string;
  logo?: string;
  statement_descriptor?: string;
  /** The language of the e-mails sent for the account, not the request's. @default 'en' */
  language?: Lang;
}

export interface Account extends AccountProfile {
  developer_id: number;
  name: string;
  email: string;
  client_id: string;
  /** Absent only if an operator removed them; handlers answer 404 (type warning) then. */
  keys?: Partial<Record<Mode, KeyInfo>>;
  created_at: string;
  updated_at: string;
}

export interface CreatedAccount {
  account: Account;
  testKey: string;
  liveKey: string;
  clientSecret: string;
}

/** What `accounts create` prints: the only time keys and the client secret are shown. */
export interface AccountCredentials {
  developer_id: number;
  name: string;
  email: string;
  test_key: string;
  live_key: string;
  client_id: string;
  client_secret: string;
}

export function credentialsOf(created: CreatedAccount): AccountCredentials {
  return {
    developer_id: created.account.developer_id,
    name: created.account.name,
    email: created.account.email,
    test_key: created.testKey,
    live_key: created.liveKey,
    client_id: created.account.client_id,
    client_secret: created.clientSecret,
  };
}

async function nextAccountId(deps: Deps): Promise<number> {
  const result = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: accountKeys.sequence(),
      UpdateExpression: 'ADD #value :one SET entity = :entity',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1, ':entity': 'sequence' },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}

/**
 * Creates an account with its two keys and client credentials in one transaction. Its live mode
 * starts not connected to an acquirer, except where the stage allows the simulated acquirer in live
 * mode (the local stack): there the account's live mode is connected to it at once, in the same
 * transaction (docs/design.md#connectors).
 */
export async function createAccount(
  deps: Deps,
  input: { name: string; email: string } & AccountProfile,
): Promise<CreatedAccount> {
  const developerId = await nextAccountId(deps);
  const now = deps.clock().toISOString();
  const testKey = generateApiKey('test');
  const liveKey = generateApiKey('live');
  const clientId = generateClientId();
  const clientSecret = generateClientSecret();
  const keyInfo = (key: string): KeyInfo => ({
    hash: hashSecret(key),
    masked: maskKey(key),
    created_at: now,
  });
  const account: Account = {
    ...input,
    developer_id: developerId,
    client_id: clientId,
    keys: { test: keyInfo(testKey), live: keyInfo(liveKey) },
    created_at: now,
    updated_at: now,
  };
  const common = { developer_id: developerId, created_at: now, updated_at: now };
  try {
    await transactWrite(deps, [
      accountEmailEntity.create(deps.table, { email: input.email, ...common }),
      accountEntity.create(deps.table, account),
      ...[testKey, liveKey].map((key) =>
        apiKeyEntity.create(deps.table, { hash: hashSecret(key), mode: modeOfKey(key), ...common }),
      ),
      clientEntity.create(deps.table, {
        client_id: clientId,
        secret_hash: hashSecret(clientSecret),
        ...common,
      }),
      ...(simulatedLiveAllowed()
        ? [
            connectionCreate(
              deps.table,
              newConnection({ developerId, mode: 'live', connector: 'simulated', now: deps.clock() }),
            ),
          ]
        : []),
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) throw new Conflict(accountMessages.account_email_taken);
    throw error;
  }
  return { account, testKey, liveKey, clientSecret };
}

/** The account record, or undefined. */
export async function getAccount(deps: Deps, developerId: number): Promise<Account | undefined> {
  const result = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: accountKeys.account(developerId) }),
  );
  return result.Item as Account | undefined;
}

/**
 * Sets or clears (with an empty string) the profile fields given; the others stay. Answers the
 * updated account, or NotFound when there is no such account.
 */
export async function updateProfile(
  deps: Deps,
  developerId: number,
  profile: AccountProfile,
): Promise<Account> {
  const sets = ['updated_at = :now'];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': deps.clock().toISOString() };
  for (const [field, value] of Object.entries(profile)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === '') removes.push(`#${field}`);
    else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  try {
    const result = await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: accountKeys.account(developerId),
        UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
        ConditionExpression: 'attribute_exists(pk)',
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return result.Attributes as Account;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new NotFound(accountMessages.account_not_found);
    throw error;
  }
}

/** Who owns a presented API key, by its hash; undefined for an unknown (or rotated) key. */
export async function findApiKey(
  deps: Deps,
  key: string,
): Promise<{ developerId: number; mode: Mode } | undefined> {
  const result = await deps.db.send(
    new GetCommand({
      TableName: deps.table,
      Key: accountKeys.apiKey(hashSecret(key)),
      ProjectionExpression: 'developer_id, #mode',
      ExpressionAttributeNames: { '#mode': 'mode' },
    }),
  );
  return apiKeyOwnerOf(result.Item);
}

/**
 * The owner an API key's item (read under `accountKeys.apiKey(hashSecret(key))`) names; undefined
 * when there is no item, so a caller that reads it among others in one batch needs no call of its own.
 */
export function apiKeyOwnerOf(
  item: Record<string, unknown> | undefined,
): { developerId: number; mode: Mode } | undefined {
  if (!item) return undefined;
  return { developerId: Number(item.developer_id), mode: item.mode as Mode };
}

/** The account and secret hash of an OAuth client id. */
export async function findClient(
  deps: Deps,
  clientId: string,
): Promise<{ developerId: number; secretHash: string } | undefined> {
  // An id no client could have is no client's, and is never a key: a 3,000-character one would be
  // over DynamoDB's key size, refused with an error rather than found missing.
  if (!isClientId(clientId)) return undefined;
  const result = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: accountKeys.client(clientId) }),
  );
  if (!result.Item) return undefined;
  return { developerId: Number(result.Item.developer_id), secretHash: String(result.Item.secret_hash) };
}

/**
 * Gives an account's OAuth client a new secret: the old one stops at once, tokens already
 * issued stay valid until they expire. The new secret is returned once; only its hash is kept.
 */
export async function rotateClientSecret(
  deps: Deps,
  developerId: number,
): Promise<{ client_id: string; client_secret: string }> {
  const account = await getAccount(deps, developerId);
  if (!account) throw new NotFound(accountMessages.account_not_found);
  const secret = generateClientSecret();
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: accountKeys.client(account.client_id),
        UpdateExpression: 'SET secret_hash = :hash, updated_at = :now',
        ConditionExpression: 'developer_id = :developer',
        ExpressionAttributeValues: {
          ':hash': hashSecret(secret),
          ':now': deps.clock().toISOString(),
          ':developer': developerId,
        },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException)
      throw new NotFound(accountMessages.account_not_found);
    throw error;
  }
  return { client_id: account.client_id, client_secret: secret };
}

/**
 * Replaces one of an account's keys. One transaction deletes the old key's lookup item, adds the
 * new one and records it on the account, on condition that the account still has the key this call
 * read: of two concurrent rotations, exactly one wins. The `api_key.rotated` event is stored in the
 * same transaction; the caller sends it once the rotation has committed.
 */
export async function rotateApiKey(
  deps: Deps,
  developerId: number,
  mode: Mode,
): Promise<{ key: string; info: KeyInfo; account: Account; event: EventDetail<unknown> }> {
  const account = await getAccount(deps, developerId);
  const current = account?.keys?.[mode];
  if (!account || !current) throw new NotFound(accountMessages.api_keys_missing);
  const now = deps.clock().toISOString();
  const key = generateApiKey(mode);
  const info: KeyInfo = { hash: hashSecret(key), masked: maskKey(key), created_at: now };
  const event = apiKeyRotated.of(
    { developerId, mode },
    { type: mode, key: info.masked, created_at: now },
    new Date(now),
  );
  try {
    await transactWrite(deps, [
      {
        Update: {
          TableName: deps.table,
          Key: accountKeys.account(developerId),
          UpdateExpression: 'SET #keys.#mode = :info, updated_at = :now',
          ConditionExpression: '#keys.#mode.#hash = :old',
          ExpressionAttributeNames: { '#keys': 'keys', '#mode': mode, '#hash': 'hash' },
          ExpressionAttributeValues: { ':info': info, ':now': now, ':old': current.hash },
        },
      },
      { Delete: { TableName: deps.table, Key: accountKeys.apiKey(current.hash) } },
      apiKeyEntity.create(deps.table, {
        hash: info.hash,
        developer_id: developerId,
        mode,
        created_at: now,
        updated_at: now,
      }),
      eventWrite(deps.table, event),
    ]);
  } catch (error) {
    if (conditionFailedAt(error).includes(0)) throw new Conflict(accountMessages.api_key_rotation_conflict);
    throw error;
  }
  return {
    key,
    info,
    account: { ...account, keys: { ...account.keys, [mode]: info }, updated_at: now },
    event,
  };
}
