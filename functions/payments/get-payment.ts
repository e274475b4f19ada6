/** GET /v1/payments/{id}: one payment, single view (with `charge_id`, null until paid). */

import { NotFound } from '../../shared/core/errors.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { paymentMessages } from '../../shared/payments/messages.ts';
import { paymentView } from '../../shared/payments/payment.ts';
import { getPayment } from '../../shared/payments/repository.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, scope }) => {
  const payment = await getPayment(deps, scope, params.id ?? '');
  if (!payment) throw new NotFound(paymentMessages.payment_not_found);
  return { status: 200, body: paymentView(payment) };
});
