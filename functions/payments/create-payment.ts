/**
 * POST /v1/payments/: a pending payment and its single-use hosted checkout. 202 with `id_payment`
 * and `redirect`, the checkout page to send the cardholder to.
 */
import { pageUrl } from '../../shared/checkout/session.ts';
import { startPayment } from '../../shared/checkout/start-payment.ts';
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { paymentMessages } from '../../shared/payments/messages.ts';
import { CreatePaymentSchema } from '../../shared/payments/schemas.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ body, scope, lang }) => {
  const { payment, session } = await startPayment(deps, scope, validate(CreatePaymentSchema, body));
  return {
    status: 202,
    body: envelope(202, paymentMessages.payment_created, lang, {
      type: 'success',
      data: { id_payment: payment.id, redirect: pageUrl(baseUrl, session.token) },
    }),
  };
});
