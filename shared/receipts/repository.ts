/**
 * Receipt links (docs/design.md#receipts). A link's token is the only thing that opens a receipt
 * without a login, so it is 43 random characters (256 bits) from the system's CSPRNG, made apart
 * from the charge, its account and its time: it tells nothing of them. The table never holds the
 * token: the link's item is keyed by an HMAC-SHA256 of it under the stage's fingerprint secret, so a
 * copy of the table opens no receipt, and a token is found by one exact key read, with no comparison
 * that stops early on a partly right token.
 */
import { createHmac } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Mode, Scope } from '../core/account.ts';
import { randomToken } from '../core/ids.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { receiptKeys } from './keys.ts';
import type { ReceiptBought, ReceiptItem, ReceiptPeriod } from './receipt.ts';

/** A receipt token's length: 43 characters of [A-Za-z0-9], 256 bits. */
export const receiptTokenLength = 43;

/**
 * One receipt link: which charge a token opens, and what the charge bought as it stood when the
 * link was made (absent on links made before these were kept: such a receipt shows without them).
 */
export interface ReceiptLink {
  token_hash: string;
  developer_id: number;
  mode: Mode;
  charge_id: string;
  item?: ReceiptItem | null;
  period?: ReceiptPeriod | null;
  created_at: string;
  updated_at: string;
}

const receiptLinkEntity = defineEntity<ReceiptLink>('receipt_link', (link) =>
  receiptKeys.link(link.token_hash),
);

/**
 * The keyed hash a token is stored under; `key` is a value of the stage's fingerprint secret. The
 * `receipt` label keeps these HMACs apart from the secret's other use (request fingerprints).
 */
export function receiptTokenHash(token: string, key: string): string {
  return createHmac('sha256', key).update(`receipt\u0000${token}`).digest('hex');
}

/**
 * A new link to the receipt of charge `chargeId`, keeping what it bought (`bought`): answers the
 * token, which only the e-mail that carries it will hold. `key` is the secret's value to key new
 * items with.
 */
export async function issueReceiptLink(
  deps: Deps,
  key: string,
  charge: { scope: Scope; chargeId: string; bought?: ReceiptBought },
): Promise<string> {
  const token = randomToken(receiptTokenLength);
  const now = deps.clock().toISOString();
  const { Put } = receiptLinkEntity.create(deps.table, {
    token_hash: receiptTokenHash(token, key),
    developer_id: charge.scope.developerId,
    mode: charge.scope.mode,
    charge_id: charge.chargeId,
    ...(charge.bought?.item ? { item: charge.bought.item } : {}),
    ...(charge.bought?.period ? { period: charge.bought.period } : {}),
    created_at: now,
    updated_at: now,
  });
  await deps.db.send(new PutCommand(Put));
  return token;
}

/**
 * The link a token opens, or undefined. Every value of the secret that may have keyed it is tried
 * (the current one and the one before it), all of them for every token, known or not, well formed
 * or not: the lookup takes the same reads whatever the token, so how long it takes tells nothing
 * about how near a guess came.
 */
export async function findReceiptLink(
  deps: Deps,
  keys: readonly string[],
  token: string,
): Promise<ReceiptLink | undefined> {
  const found = await Promise.all(
    keys.map((key) => receiptLinkEntity.get(deps, receiptKeys.link(receiptTokenHash(token, key)))),
  );
  return found.find((link) => link !== undefined);
}
