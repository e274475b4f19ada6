/**
 * One e-mail per event and recipient (docs/design.md#e-mail), though EventBridge delivers at least
 * once: a marker item, keyed by the event id and the recipient, is stored on condition that it is new
 * before the e-mail goes out. A second delivery finds the marker and sends nothing; a send that fails
 * removes it, so the retry of that delivery sends. A crash between the marker and the send loses that
 * e-mail rather than sending it twice.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Scope } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { defineEntity } from '../db/entity.ts';
import { mailKeys } from './keys.ts';
import type { Mail, Mailer } from './send.ts';

/** How long a marker is kept (DynamoDB TTL): longer than EventBridge retries and event redelivery. */
export const mailSentRetentionDays = 30;

/** The marker of one sent e-mail; the address itself is not stored, only its hash. */
interface MailSent {
  event_id: string;
  recipient_hash: string;
  developer_id?: number;
  mode?: Scope['mode'];
  created_at: string;
  updated_at: string;
  expires_at: number;
}

const mailSentEntity = defineEntity<MailSent>('mail_sent', (marker) =>
  mailKeys.sent(marker.event_id, marker.recipient_hash),
);

/** The SHA-256 (hex) of an address, trimmed and lower-cased: one recipient, however it is spelled. */
export function recipientHash(address: string): string {
  return createHash('sha256').update(address.trim().toLowerCase()).digest('hex');
}

/**
 * Whether the e-mail of `eventId` to `to` was already sent (its marker is stored): for a sender
 * that makes something for the e-mail alone (a receipt's link), so a repeated delivery makes none.
 * sendOnce still decides; this only spares the work when the answer is already known.
 */
export async function alreadySent(deps: Deps, eventId: string, to: string): Promise<boolean> {
  const result = await deps.db.send(
    new GetCommand({
      TableName: deps.table,
      Key: mailKeys.sent(eventId, recipientHash(to)),
      ConsistentRead: true,
    }),
  );
  return result.Item !== undefined;
}

export interface SendOnceInput {
  /** The event the e-mail reports (its `id`): the unit of deduplication with the recipient. */
  eventId: string;
  to: string;
  mail: Omit<Mail, 'to'>;
  /** Whose event it is; recorded on the marker like on every item. @default none */
  owner?: Scope;
}

/**
 * Sends `mail` to `to` unless it was already sent for this event. Answers the message id, or
 * undefined when an earlier delivery of the event sent it.
 */
export async function sendOnce(
  deps: Deps,
  mailer: Mailer,
  input: SendOnceInput,
): Promise<string | undefined> {
  const now = deps.clock();
  const marker: MailSent = {
    event_id: input.eventId,
    recipient_hash: recipientHash(input.to),
    ...(input.owner ? { developer_id: input.owner.developerId, mode: input.owner.mode } : {}),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    expires_at: Math.floor(now.getTime() / 1000) + mailSentRetentionDays * 86_400,
  };
  const { Put } = mailSentEntity.create(deps.table, marker);
  try {
    await deps.db.send(new PutCommand(Put));
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
  try {
    return await mailer.send({ ...input.mail, to: input.to });
  } catch (sendError) {
    try {
      await deps.db.send(
        new DeleteCommand({
          TableName: deps.table,
          Key: mailKeys.sent(marker.event_id, marker.recipient_hash),
        }),
      );
    } catch (deleteError) {
      throw new AggregateError(
        [sendError, deleteError],
        'e-mail not sent, and its marker not removed: a retry of this event will not send it',
      );
    }
    throw sendError;
  }
}
