/** Events about charges (the event catalogue's charges part). */
import * as v from 'valibot';
import { defineEvent } from '../events/event.ts';
import { ChargeViewSchema } from './schemas.ts';

/**
 * A card was charged, whatever for (checkout, subscriptions, payment links, the legacy charge):
 * the charge in its list view, saying what it pays for.
 */
export const chargeSucceeded = defineEvent('charge.succeeded', v.object({ object: ChargeViewSchema }));
