/**
 * The receipts area for the stack: the receipt e-mail sent for every approved charge, and the page
 * and PDF its link opens.
 */
import { chargeSucceeded } from '../charges/events.ts';
import { defineArea } from '../stack/area.ts';
import { receiptsRoutes } from './routes.ts';

export const receiptsArea = defineArea({
  name: 'receipts',
  description:
    'Receipts of approved charges: the e-mail to the payer, and its page and PDF behind an unguessable link.',
  routes: receiptsRoutes,
  eventRules: [
    {
      // Every approved charge stores `charge.succeeded`, whatever paid for it (a checkout, a
      // subscription's first charge, a renewal or a trial's end, a payment link, the legacy charge).
      name: 'receipt-email',
      detailTypes: [chargeSucceeded.type],
      target: 'functions/receipts/send-receipt.ts',
      access: {
        table: { actions: ['GetItem', 'PutItem', 'DeleteItem'] },
        mail: true,
        fingerprintSecret: true,
      },
    },
  ],
});
