/** The accounts area for the stack: the event of a rotated key, and the e-mail it sends. */
import { defineArea } from '../stack/area.ts';
import { apiKeyRotated } from './events.ts';

export const accountsArea = defineArea({
  name: 'accounts',
  description:
    'The merchant account: its profile and its API keys as stored, and the event of a rotated key.',
  events: [
    { event: apiKeyRotated, summary: 'An API key was rotated: its mode, the new key masked, and when.' },
  ],
  eventRules: [
    {
      name: 'api-key-rotated-email',
      detailTypes: [apiKeyRotated.type],
      target: 'functions/notifications/send-key-rotated-email.ts',
      // Writes the sent-once marker (shared/mail/once.ts).
      access: { table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] }, mail: true },
    },
  ],
});
