/**
 * Customer portal links (docs/design.md#customer-portal). A link's token is the only thing that opens
 * a customer's portal without a login, so it is 43 random characters (256 bits) from the system's
 * CSPRNG, made apart from the customer, its account and its time. The table never holds the token:
 * the link's item is keyed by an HMAC-SHA256 of it under the stage's fingerprint secret, so a copy
 * of the table opens no portal, and a token is found by one exact key read per value of the secret,
 * whatever the token, with no comparison that stops early on a partly right one.
 */
import { createHmac } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode, Scope } from '../core/account.ts';
import { randomToken } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { portalKeys } from './keys.ts';

/** A portal token's length: 43 characters of [A-Za-z0-9], 256 bits. */
export const portalTokenLength = 43;
/** The length of a portal page's CSRF token. */
export const portalCsrfLength = 32;

/** How long an expired link is kept so that it says "expired" rather than "not found". */
const keepDays = 7;

/** One portal link: which customer a token opens, until when. */
export interface PortalLink {
  token_hash: string;
  developer_id: number;
  mode: Mode;
  customer_id: string;
  /** The token every form of the page posts back; compared in constant time. */
  csrf: string;
  expires_at_ms: number;
  /** DynamoDB TTL, epoch seconds. */
  expires_at: number;
  created_at: string;
  updated_at: string;
}

const portalLinkEntity = defineEntity<PortalLink>('portal_link', (link) => portalKeys.link(link.token_hash));

/**
 * The keyed hash a token is stored under; `key` is a value of the stage's fingerprint secret. The
 * `portal` label keeps these HMACs apart from the secret's other uses.
 */
export function portalTokenHash(token: string, key: string): string {
  return createHmac('sha256', key).update(`portal\u0000${token}`).digest('hex');
}

/** A new link to `customer`'s portal, open for `lifetimeMs`: answers the token and when it expires. */
export async function issuePortalLink(
  deps: Deps,
  key: string,
  customer: { scope: Scope; customerId: string },
  lifetimeMs: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(portalTokenLength);
  const now = deps.clock();
  const expiresAt = new Date(now.getTime() + lifetimeMs);
  const { Put } = portalLinkEntity.create(deps.table, {
    token_hash: portalTokenHash(token, key),
    developer_id: customer.scope.developerId,
    mode: customer.scope.mode,
    customer_id: customer.customerId,
    csrf: randomToken(portalCsrfLength),
    expires_at_ms: expiresAt.getTime(),
    expires_at: Math.floor(expiresAt.getTime() / 1000) + keepDays * 86_400,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  await deps.db.send(new PutCommand(Put));
  return { token, expiresAt };
}

/** The link a token opens (expired or not), or undefined; every value of the secret is tried. */
export async function findPortalLink(
  deps: Deps,
  keys: readonly string[],
  token: string,
): Promise<PortalLink | undefined> {
  const found = await Promise.all(
    keys.map((key) => portalLinkEntity.get(deps, portalKeys.link(portalTokenHash(token, key)))),
  );
  return found.find((link) => link !== undefined);
}

/** How long a cancel's confirmation page can be answered. */
export const cancelConfirmationMs = 15 * 60_000;

/**
 * A cancel asked for from a portal link, waiting for "Yes, cancel": its own CSRF token, which the
 * confirmation's form posts back once. Asking again replaces it (an older confirmation page then
 * answers that its form expired).
 */
export interface CancelConfirmation {
  token_hash: string;
  subscription_id: string;
  csrf: string;
  expires_at_ms: number;
  /** DynamoDB TTL, epoch seconds. */
  expires_at: number;
  created_at: string;
}

const cancelConfirmationEntity = defineEntity<CancelConfirmation>('portal_cancel', (confirmation) =>
  portalKeys.cancel(confirmation.token_hash, confirmation.subscription_id),
);

/** A new confirmation of the cancel of `subscriptionId` from `link`: its CSRF token. */
export async function askCancelConfirmation(deps: Deps, link: PortalLink, subscriptionId: string) {
  const now = deps.clock();
  const expires = now.getTime() + cancelConfirmationMs;
  const confirmation: CancelConfirmation = {
    token_hash: link.token_hash,
    subscription_id: subscriptionId,
    csrf: randomToken(portalCsrfLength),
    expires_at_ms: expires,
    expires_at: Math.floor(expires / 1000) + 86_400,
    created_at: now.toISOString(),
  };
  await deps.db.send(
    new PutCommand({ TableName: deps.table, Item: cancelConfirmationEntity.item(confirmation) }),
  );
  return confirmation.csrf;
}

/**
 * Spends the confirmation of the cancel of `subscriptionId` whose CSRF token is `csrf`: true once,
 * for the first post of that token while it is valid; false for any other token, a spent one, an
 * expired one or none. The delete is conditioned on the token, so two posts at once spend it once.
 */
export async function spendCancelConfirmation(
  deps: Deps,
  link: PortalLink,
  subscriptionId: string,
  csrf: string,
): Promise<boolean> {
  if (csrf.length !== portalCsrfLength || !/^[A-Za-z0-9]+$/.test(csrf)) return false;
  try {
    await deps.db.send(
      new DeleteCommand({
        TableName: deps.table,
        Key: portalKeys.cancel(link.token_hash, subscriptionId),
        ConditionExpression: 'csrf = :csrf AND expires_at_ms > :now',
        ExpressionAttributeValues: { ':csrf': csrf, ':now': deps.clock().getTime() },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
