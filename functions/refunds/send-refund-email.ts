/**
 * Target of `refund.created`: the refund notice to the payer of the refunded charge, in the account's
 * language with the merchant's name and logo; sent once per refund however often the event comes.
 * The payer's address is the charge's customer's, else the address its payment was made with; a
 * charge with neither (a legacy charge without an e-mail) sends nothing.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { merchantName } from '../../shared/accounts/account.ts';
import { getAccount } from '../../shared/accounts/repository.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import { observed } from '../../shared/core/invocation.ts';
import { formatAmount } from '../../shared/core/money/amount.ts';
import { currencyOf } from '../../shared/core/money/fields.ts';
import { findCustomer } from '../../shared/customers/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { scopeOfEvent } from '../../shared/events/event.ts';
import { mailLanguage } from '../../shared/mail/layout.ts';
import { sendOnce } from '../../shared/mail/once.ts';
import { sesMailer } from '../../shared/mail/send.ts';
import { getPayment } from '../../shared/payments/repository.ts';
import { refundCreated } from '../../shared/refunds/events.ts';
import { refundIssuedMail } from '../../shared/refunds/mail.ts';

const deps = makeDeps();
const mailer = sesMailer();

export const handler = observed(async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const detail = refundCreated.read(event.detail);
  const refund = detail.data.object;
  const scope = scopeOfEvent(detail);
  const [account, charge] = await Promise.all([
    getAccount(deps, detail.developer_id),
    getCharge(deps, scope, refund.charge_id),
  ]);
  if (!account || !charge) return; // gone since: nobody to tell
  const [customer, payment] = await Promise.all([
    charge.customer_id ? findCustomer(deps, scope, charge.customer_id) : undefined,
    charge.payment_id ? getPayment(deps, scope, charge.payment_id) : undefined,
  ]);
  const to = customer?.email ?? payment?.customer_email;
  if (!to) return; // nobody's address on the charge: nobody to tell
  const currency = currencyOf(charge);
  const mail = refundIssuedMail({
    language: mailLanguage(account.language),
    merchant: { name: merchantName(account), logoUrl: account.logo ?? null },
    customerName: customer?.first_name ?? null,
    amount: refund.amount,
    currency: charge.currency.toUpperCase(),
    chargeId: charge.id,
    chargeAmount: formatAmount(charge.amount, currency),
    chargeDescription: charge.description,
    chargedAt: charge.created_at,
    card: charge.card.last4 ? { brand: charge.card.brand, last4: charge.card.last4 } : null,
    refundId: refund.provider_refund_id,
    refundedAt: refund.created_at,
  });
  await sendOnce(deps, mailer, { eventId: detail.id, to, mail, owner: scope });
});
