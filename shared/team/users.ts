/**
 * An account's dashboard users (docs/design.md#team-sign-in), as stored: one item per user, found by
 * its id (sessions name it) or through its e-mail's claim (sign-in), listed under its account by
 * e-mail. An e-mail address belongs to one user in the stage: the claim is written in the same
 * transaction as the user, on the condition that none exists.
 *
 * The account's count of admins is kept in every transaction that adds, removes or re-roles an
 * admin, on the condition that at least one is left: two admins removing each other at once end
 * with one of them still there.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { prefixedId } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { getRecord, queryRecords } from '../db/items.ts';
import { failedConditions, named, type TransactItem, transactNamed } from '../db/transact.ts';
import { teamKeys } from './keys.ts';
import type { Role } from './roles.ts';

export interface TeamUser {
  user_id: string;
  developer_id: number;
  /** As typed at invitation, lower-cased: the address signs in whatever its case. */
  email: string;
  role: Role;
  /**
   * `invited` until a password is set through a one-time link (or `--password-stdin`); only an
   * active user signs in. The local stack's demo admin is active from the start, with no password.
   */
  status: 'invited' | 'active';
  /** The encoded Argon2id hash (./password.ts); absent until one is set. */
  password_hash?: string;
  /**
   * Raised at every password change; each session keeps the value it was opened under, and a
   * session under an older one is over (the change ends the user's other sessions).
   */
  password_version: number;
  /** The TOTP secret, sealed under the stage's key (./two-factor.ts); present once enrolled. */
  totp_sealed?: string;
  /** Raised by each one-time link made for the user: only the newest link opens (./links.ts). */
  link_version?: number;
  /** The last TOTP step a code was accepted for: a code is taken only for a later step. */
  totp_last_step?: number;
  /** Who invited the user (a user id), or `cli` for one added from the command line. */
  added_by: string;
  created_at: string;
  updated_at: string;
}

/** Who is named on a user's record and in the audit log. */
export interface Actor {
  user_id: string;
  email: string;
}

/** The operator's command line, as the audit log and `added_by` name it. */
export const cliActor: Actor = { user_id: 'cli', email: 'command line' };

const userEntity = defineEntity<TeamUser>('user', (user) => ({
  ...teamKeys.user(user.user_id),
  ...teamKeys.inUserList(user.developer_id, user.email),
}));

export const normalEmail = (email: string) => email.trim().toLowerCase();

/** One user by id, or undefined. */
export const getUser = (deps: Deps, userId: string): Promise<TeamUser | undefined> =>
  userEntity.get(deps, teamKeys.user(userId));

/** A user of one account by id: undefined when there is none or it is another account's. */
export async function getAccountUser(
  deps: Deps,
  developerId: number,
  userId: string,
): Promise<TeamUser | undefined> {
  if (!/^usr_[A-Za-z0-9]{24}$/.test(userId)) return undefined;
  const user = await getUser(deps, userId);
  return user?.developer_id === developerId ? user : undefined;
}

/** The user an e-mail address signs in as, or undefined (two reads: the claim, then the user). */
export async function findUserByEmail(deps: Deps, email: string): Promise<TeamUser | undefined> {
  const claim = await getRecord<{ user_id: string }>(deps, teamKeys.email(normalEmail(email)));
  return claim ? getUser(deps, claim.user_id) : undefined;
}

/** An account never has more users than this: the users page lists them all. */
export const maxUsers = 200;

/** The users of an account, by e-mail. */
export function listUsers(deps: Deps, developerId: number): Promise<TeamUser[]> {
  const list = teamKeys.userList(developerId);
  return queryRecords<TeamUser>(
    deps,
    {
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': list.partition, ':prefix': list.prefix },
    },
    maxUsers,
  );
}

/** Adds `by` to the account's admins, holding only while at least one is left afterwards. */
function adminsBy(deps: Deps, developerId: number, by: 1 | -1, now: string): TransactItem {
  return {
    Update: {
      TableName: deps.table,
      Key: teamKeys.admins(developerId),
      UpdateExpression: 'ADD admins :by SET entity = :entity, updated_at = :now',
      ...(by < 0 ? { ConditionExpression: 'admins > :one' } : {}),
      ExpressionAttributeValues: {
        ':by': by,
        ':entity': 'user_admins',
        ':now': now,
        ...(by < 0 ? { ':one': 1 } : {}),
      },
    },
  };
}

export type AddUserOutcome = { added: true; user: TeamUser } | { added: false; refused: 'email_taken' };

/**
 * A new user of an account: `invited` without a password (a one-time link sets it), `active` with
 * one, or `active` without one when `active` says so (it then signs in only through one-time
 * sign-in links until it sets a password: the local stack's demo admin). Refused when the e-mail
 * address is already a user's, in this account or another.
 */
export async function addUser(
  deps: Deps,
  input: {
    developerId: number;
    email: string;
    role: Role;
    passwordHash?: string;
    addedBy: string;
    active?: true;
  },
): Promise<AddUserOutcome> {
  const now = deps.clock().toISOString();
  const email = normalEmail(input.email);
  const user: TeamUser = {
    user_id: prefixedId('usr'),
    developer_id: input.developerId,
    email,
    role: input.role,
    status: input.passwordHash || input.active ? 'active' : 'invited',
    ...(input.passwordHash ? { password_hash: input.passwordHash } : {}),
    password_version: 1,
    added_by: input.addedBy,
    created_at: now,
    updated_at: now,
  };
  const items = [
    ...named('email', {
      Put: {
        TableName: deps.table,
        Item: {
          ...teamKeys.email(email),
          entity: 'user_email',
          user_id: user.user_id,
          developer_id: input.developerId,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }),
    ...named('user', userEntity.create(deps.table, user)),
    ...(input.role === 'admin' ? named('admins', adminsBy(deps, input.developerId, 1, now)) : []),
  ];
  try {
    await transactNamed(deps, items);
  } catch (error) {
    if (failedConditions(error, items).has('email')) return { added: false, refused: 'email_taken' };
    throw error;
  }
  return { added: true, user };
}

export type UserChange = 'done' | 'not_found' | 'last_admin' | 'changed_meanwhile';

/**
 * The condition that a user is still the account's, with the role it was read with; a refusal
 * returns the item as found, so a user removed meanwhile is told from one changed.
 */
const stillAs = (user: TeamUser) => ({
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  ConditionExpression: 'developer_id = :dev AND #role = :role',
  ExpressionAttributeNames: { '#role': 'role' },
  ExpressionAttributeValues: { ':dev': user.developer_id, ':role': user.role },
});

function changeOutcome(
  error: unknown,
  items: ReturnType<typeof named<'user' | 'admins' | 'email'>>,
): UserChange {
  const failed = failedConditions(error, items);
  if (failed.has('admins')) return 'last_admin';
  if (failed.has('user')) return failed.get('user') ? 'changed_meanwhile' : 'not_found';
  throw error;
}

/** Gives a user another role; never takes away an account's last admin. */
export async function changeRole(deps: Deps, user: TeamUser, role: Role): Promise<UserChange> {
  if (user.role === role) return 'done';
  const now = deps.clock().toISOString();
  const { ExpressionAttributeValues, ...condition } = stillAs(user);
  const items = [
    ...named('user', {
      Update: {
        TableName: deps.table,
        Key: teamKeys.user(user.user_id),
        UpdateExpression: 'SET #role = :new, updated_at = :now',
        ...condition,
        ExpressionAttributeValues: { ...ExpressionAttributeValues, ':new': role, ':now': now },
      },
    }),
    ...(user.role === 'admin' ? named('admins', adminsBy(deps, user.developer_id, -1, now)) : []),
    ...(role === 'admin' ? named('admins', adminsBy(deps, user.developer_id, 1, now)) : []),
  ];
  try {
    await transactNamed(deps, items);
    return 'done';
  } catch (error) {
    return changeOutcome(error, items);
  }
}

/**
 * Removes a user and frees its e-mail address; its sessions end with it (each reads the user). Never
 * the account's last admin.
 */
export async function removeUser(deps: Deps, user: TeamUser): Promise<UserChange> {
  const now = deps.clock().toISOString();
  const items = [
    ...named('user', {
      Delete: { TableName: deps.table, Key: teamKeys.user(user.user_id), ...stillAs(user) },
    }),
    ...named('email', {
      Delete: {
        TableName: deps.table,
        Key: teamKeys.email(user.email),
        ConditionExpression: 'user_id = :id',
        ExpressionAttributeValues: { ':id': user.user_id },
      },
    }),
    ...(user.role === 'admin' ? named('admins', adminsBy(deps, user.developer_id, -1, now)) : []),
  ];
  try {
    await transactNamed(deps, items);
    return 'done';
  } catch (error) {
    return changeOutcome(error, items);
  }
}

/**
 * A new password for a user: stored, the user active, its password version raised (every session
 * opened before ends). Answers the new version, or undefined when the user is gone.
 */
export async function setPassword(
  deps: Deps,
  userId: string,
  passwordHash: string,
): Promise<number | undefined> {
  try {
    const result = await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: teamKeys.user(userId),
        UpdateExpression:
          'SET password_hash = :hash, #status = :active, updated_at = :now ADD password_version :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':hash': passwordHash,
          ':active': 'active',
          ':now': deps.clock().toISOString(),
          ':one': 1,
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.password_version);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
