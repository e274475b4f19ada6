/**
 * POST /v1/payments/: a pending payment and its single-use hosted checkout. 202 with `id_payment`
 * and `redirect`, the checkout page to send the cardholder to.
 */
import { merchantName, statementDescriptor } from '../../shared/accounts/account.ts';
import { getAccount } from '../../shared/accounts/repository.ts';
import { refuseUnconnected } from '../../shared/acquirer/connection.ts';
import { createPayment } from '../../shared/checkout/repository.ts';
import { newSession, pageUrl } from '../../shared/checkout/session.ts';
import { envelope } from '../../shared/core/errors.ts';
import { validate } from '../../shared/core/validation.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { paymentMessages } from '../../shared/payments/messages.ts';
import { newPayment } from '../../shared/payments/payment.ts';
import { CreatePaymentSchema } from '../../shared/payments/schemas.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ body, scope, lang }) => {
  const input = validate(CreatePaymentSchema, body);
  const now = deps.clock();
  const payment = newPayment(input, { ...scope, now });
  const [owner] = await Promise.all([getAccount(deps, scope.developerId), refuseUnconnected(deps, scope)]);
  const session = newSession(
    payment,
    {
      name: merchantName(owner),
      statementDescriptor: statementDescriptor(owner),
    },
    now,
  );
  await createPayment(deps, payment, session);
  return {
    status: 202,
    body: envelope(202, paymentMessages.payment_created, lang, {
      type: 'success',
      data: { id_payment: payment.id, redirect: pageUrl(baseUrl, session.token) },
    }),
  };
});
