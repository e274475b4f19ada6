/** The keys of once-only sending's markers. */
import type { ItemKey } from '../db/keys.ts';

export const mailKeys = {
  /** That an event's e-mail went to one recipient (the SHA-256 of the address): sent once. */
  sent: (eventId: string, recipientHash: string): ItemKey => ({
    pk: `MAIL_SENT#${eventId}#${recipientHash}`,
    sk: 'MAIL_SENT',
  }),
};
