/**
 * A payment's start (POST /v1/payments/): the pending payment and its single-use checkout session,
 * stored together, the session carrying what its page shows of the merchant. In a mode connected to
 * nothing it is refused before anything is stored (docs/design.md#connectors).
 */
import { merchantName, statementDescriptor } from '../accounts/account.ts';
import { getAccount } from '../accounts/repository.ts';
import { refuseUnconnected } from '../acquirer/connection.ts';
import type { Scope } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import { newPayment, type Payment } from '../payments/payment.ts';
import type { CreatePaymentInput } from '../payments/schemas.ts';
import { createPayment } from './repository.ts';
import { type CheckoutSession, newSession } from './session.ts';

/** Starts a payment from a validated request: the payment, and the session whose page takes it. */
export async function startPayment(
  deps: Deps,
  scope: Scope,
  input: CreatePaymentInput,
): Promise<{ payment: Payment; session: CheckoutSession }> {
  const now = deps.clock();
  const payment = newPayment(input, { ...scope, now });
  const [owner] = await Promise.all([getAccount(deps, scope.developerId), refuseUnconnected(deps, scope)]);
  const merchant = { name: merchantName(owner), statementDescriptor: statementDescriptor(owner) };
  const session = newSession(payment, merchant, now);
  await createPayment(deps, payment, session);
  return { payment, session };
}
