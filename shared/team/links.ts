/**
 * One-time links of the dashboard (docs/design.md#team-sign-in): `/dashboard/access/<token>`, to set
 * a password (the first admin's, from `users add`, 24 hours; an invitation's, 7 days; a reset's, 24
 * hours) or to sign in once (the local stack's banner, for the demo account's admin). The token (43
 * random characters, 256 bits) is only in the link: the table keeps an HMAC-SHA256 of it under the
 * stage's fingerprint secret, so a copy of the table opens nothing. Following a link shows a form;
 * only its POST uses the link up (a DeleteItem on the condition that it is still there and in
 * time), so a mail scanner fetching the link spends nothing, and two submits use it once.
 *
 * A new link for a user replaces every earlier one: making it raises the user's `link_version`,
 * which the link keeps, and a link of an older version opens nothing (`linkHolds`). A reset or a
 * second invitation thus closes a link that was forwarded or leaked before.
 */
import { createHmac } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isToken, randomToken } from '../core/ids.ts';
import type { TokenKeys } from '../core/secrets.ts';
import type { Deps } from '../db/deps.ts';
import { getItems } from '../db/get-items.ts';
import { recordOf } from '../db/items.ts';
import { teamKeys } from './keys.ts';

export const linkTokenLength = 43;
export const linkLifetimeMs = {
  first: 24 * 3_600_000,
  invitation: 7 * 86_400_000,
  reset: 24 * 3_600_000,
} as const;

/** What a link does once followed: set the user's password, or sign the user in. */
export type LinkPurpose = 'set_password' | 'sign_in';

export interface AccessLink {
  token_hash: string;
  purpose: LinkPurpose;
  user_id: string;
  developer_id: number;
  /** The user's link version when it was made: a later link replaces it. */
  link_version: number;
  expires_at_ms: number;
  /** DynamoDB TTL, epoch seconds. */
  expires_at: number;
  created_at: string;
}

const linkHash = (token: string, key: string) =>
  createHmac('sha256', key).update(`dashboard-link\u0000${token}`).digest('hex');

/** The link's URL: `<base>/dashboard/access/<token>`. */
export const accessUrl = (baseUrl: string, token: string) => `${baseUrl}/dashboard/access/${token}`;

/** A new link for a user: its token (shown once, in the URL). */
export async function makeLink(
  deps: Deps,
  keys: TokenKeys,
  input: { userId: string; developerId: number; purpose: LinkPurpose; lifetimeMs: number },
): Promise<string> {
  const token = randomToken(linkTokenLength);
  const now = deps.clock();
  // The user's links so far stop opening: this one holds the version raised now.
  const raised = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: teamKeys.user(input.userId),
      UpdateExpression: 'ADD link_version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const expiresAtMs = now.getTime() + input.lifetimeMs;
  const link: AccessLink = {
    token_hash: linkHash(token, await keys.sign()),
    purpose: input.purpose,
    user_id: input.userId,
    developer_id: input.developerId,
    link_version: Number(raised.Attributes?.link_version),
    expires_at_ms: expiresAtMs,
    expires_at: Math.ceil(expiresAtMs / 1000),
    created_at: now.toISOString(),
  };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...teamKeys.link(link.token_hash), entity: 'user_link', ...link },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return token;
}

/** The keys a token may be stored under: one per value of the secret. */
async function linkKeysOf(keys: TokenKeys, token: string) {
  return (await keys.lookup()).map((key) => teamKeys.link(linkHash(token, key)));
}

/** The link a token opens, while it is unused and in time; else undefined. Reads only. */
export async function readLink(deps: Deps, keys: TokenKeys, token: string): Promise<AccessLink | undefined> {
  if (!isToken(token, linkTokenLength)) return undefined;
  const found = (await getItems(deps, await linkKeysOf(keys, token))).find((item) => item !== undefined);
  const link = found ? recordOf<AccessLink>(found) : undefined;
  return link && link.expires_at_ms > deps.clock().getTime() ? link : undefined;
}

/** Uses a link up: the link it was, once; undefined when it was used already, has expired, or is none. */
export async function useLink(deps: Deps, keys: TokenKeys, token: string): Promise<AccessLink | undefined> {
  if (!isToken(token, linkTokenLength)) return undefined;
  for (const Key of await linkKeysOf(keys, token)) {
    try {
      const deleted = await deps.db.send(
        new DeleteCommand({
          TableName: deps.table,
          Key,
          ConditionExpression: 'attribute_exists(pk) AND expires_at_ms > :now',
          ExpressionAttributeValues: { ':now': deps.clock().getTime() },
          ReturnValues: 'ALL_OLD',
        }),
      );
      if (deleted.Attributes) return recordOf<AccessLink>(deleted.Attributes);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
  return undefined;
}

/** Whether a link still opens for the user it names: the same account, and no later link made since. */
export const linkHolds = (
  link: AccessLink,
  user: { developer_id: number; link_version?: number } | undefined,
): boolean =>
  user !== undefined && user.developer_id === link.developer_id && user.link_version === link.link_version;
