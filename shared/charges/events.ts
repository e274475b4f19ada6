/** Events about charges (the event catalogue's charges part). */
import * as v from 'valibot';
import { defineEvent } from '../events/event.ts';
import { ChargeViewSchema } from './schemas.ts';

/** A card was charged without a checkout (the legacy charge, D8): the charge in its list view. */
export const chargeSucceeded = defineEvent('charge.succeeded', v.object({ object: ChargeViewSchema }));
