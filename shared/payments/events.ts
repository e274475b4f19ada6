/** Events about payments (the event catalogue's payments part). */
import * as v from 'valibot';
import { declineReasons } from '../acquirer/acquirer.ts';
import { defineEvent } from '../events/event.ts';
import { PaymentViewSchema } from './schemas.ts';

const declineReason = v.picklist(declineReasons);

/** A checkout was paid: the payment, completed, with its charge. */
export const paymentSucceeded = defineEvent('payment.succeeded', v.object({ object: PaymentViewSchema }));

/** A checkout attempt was declined (each one is reported), with the reason. */
export const paymentFailed = defineEvent(
  'payment.failed',
  v.object({
    object: v.object({ ...PaymentViewSchema.entries, decline_reason: declineReason }),
    decline_reason: declineReason,
  }),
);
