/** Events about refunds (the event catalogue's refunds part). */
import * as v from 'valibot';
import { defineEvent } from '../events/event.ts';
import { RefundViewSchema } from './schemas.ts';

/** A refund was recorded against a charge: the refund as GET /v1/refunds/{id}/ shows it. */
export const refundCreated = defineEvent('refund.created', v.object({ object: RefundViewSchema }));
