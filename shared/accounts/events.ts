/** Events about accounts (the event catalogue's accounts part). */
import * as v from 'valibot';
import { defineEvent } from '../events/event.ts';

/** An API key was replaced: its mode, the new key masked, and when. */
export const apiKeyRotated = defineEvent(
  'api_key.rotated',
  v.object({ type: v.picklist(['test', 'live']), key: v.string(), created_at: v.string() }),
);
