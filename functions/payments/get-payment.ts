/** GET /v1/payments/{id}: one payment, single view (with `charge_id`, null until paid). */
import { makeDeps } from '../../shared/deps.ts';
import { endpoint } from '../../shared/http/endpoint.ts';
import { NotFound } from '../../shared/http/errors.ts';
import { paymentView } from '../../shared/payments/payment.ts';
import { getPayment } from '../../shared/payments/repository.ts';

const deps = makeDeps();

export const handler = endpoint(async ({ params, account, mode }) => {
  const id = params.id ?? '';
  const payment = /^pay_[A-Za-z0-9]{24}$/.test(id)
    ? await getPayment(deps, { developerId: account.developerId, mode }, id)
    : undefined;
  if (!payment) throw new NotFound('payment_not_found', { type: 'danger' });
  return { status: 200, body: paymentView(payment) };
});
