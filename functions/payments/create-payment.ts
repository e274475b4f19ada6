/**
 * POST /v1/payments/: a pending payment and its single-use hosted checkout. 202 with `id_payment`
 * and `redirect`, the checkout page to send the cardholder to.
 */
import { getAccount } from '../../shared/accounts/repository.ts';
import { pageUrl } from '../../shared/checkout/http.ts';
import { newSession } from '../../shared/checkout/session.ts';
import { makeDeps } from '../../shared/deps.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { envelope } from '../../shared/http/errors.ts';
import { validate } from '../../shared/http/validation.ts';
import { newPayment } from '../../shared/payments/payment.ts';
import { createPayment } from '../../shared/payments/repository.ts';
import { CreatePaymentSchema } from '../../shared/payments/schemas.ts';

const deps = makeDeps();
const baseUrl = publicBaseUrl();

export const handler = endpoint(async ({ body, account, mode, lang }) => {
  const input = validate(CreatePaymentSchema, body);
  const now = deps.clock();
  const payment = newPayment(input, { developerId: account.developerId, mode, now });
  const owner = await getAccount(deps, account.developerId);
  const merchantName = owner?.company_name ?? owner?.name ?? '';
  const session = newSession(
    payment,
    {
      name: merchantName,
      statementDescriptor: owner?.statement_descriptor ?? [...merchantName].slice(0, 22).join(''),
    },
    now,
  );
  await createPayment(deps, payment, session);
  return {
    status: 202,
    body: envelope(202, 'payment_created', lang, {
      type: 'success',
      data: { id_payment: payment.id, redirect: pageUrl(baseUrl, session.token) },
    }),
  };
});
