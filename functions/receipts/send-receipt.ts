/**
 * Target of `charge.succeeded`: e-mails the payer the receipt of the charge, in the account's
 * language, with a new link to the receipt's page and PDF; a subscription's charge also says what it
 * bought and the period it pays for, kept on the link as they are now. A charge with no customer (the legacy
 * charge, which takes no e-mail address) has nobody to send it to. A second delivery of the event
 * sends nothing, and makes no second link.
 */
import type { EventBridgeEvent } from 'aws-lambda';
import { getAccount } from '../../shared/accounts/repository.ts';
import { chargeSucceeded } from '../../shared/charges/events.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import { observed } from '../../shared/core/invocation.ts';
import { formatAmount } from '../../shared/core/money/amount.ts';
import { findCustomer } from '../../shared/customers/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { scopeOfEvent } from '../../shared/events/event.ts';
import { publicBaseUrl } from '../../shared/http/base-url.ts';
import { alreadySent, sendOnce } from '../../shared/mail/once.ts';
import { sesMailer } from '../../shared/mail/send.ts';
import { receiptMail } from '../../shared/receipts/mail.ts';
import { receiptUrl, receiptView } from '../../shared/receipts/receipt.ts';
import { issueReceiptLink } from '../../shared/receipts/repository.ts';
import { receiptBought, stageReceiptKeys } from '../../shared/receipts/service.ts';

const deps = makeDeps();
const mailer = sesMailer();
const baseUrl = publicBaseUrl();
const keys = stageReceiptKeys();

export const handler = observed(async (event: EventBridgeEvent<string, unknown>): Promise<void> => {
  const detail = chargeSucceeded.read(event.detail);
  const scope = scopeOfEvent(detail);
  const { object } = detail.data;
  if (!object.customer) return; // no payer's address: nobody to send it to
  const [charge, account, customer] = await Promise.all([
    getCharge(deps, scope, object.id),
    getAccount(deps, detail.developer_id),
    findCustomer(deps, scope, object.customer),
  ]);
  if (!charge || !account || !customer?.email) return; // gone since: nobody to tell
  if (await alreadySent(deps, detail.id, customer.email)) return;
  // What a subscription's charge bought is kept on the link now: the receipt says it ever after.
  const bought = await receiptBought(deps, scope, charge);
  const token = await issueReceiptLink(deps, await keys.sign(), { scope, chargeId: charge.id, bought });
  const view = receiptView(charge, account, bought);
  const { item, period } = view;
  const mail = receiptMail({
    language: view.language,
    merchant: { name: view.merchant, logoUrl: view.logoUrl ?? null },
    customerName: customer.first_name,
    receipt: {
      reference: view.reference,
      amount: formatAmount(view.amount, view.currency),
      currency: view.currency.code,
      description: view.description,
      item: item
        ? {
            name: item.name,
            quantity: item.quantity,
            unitAmount: formatAmount(item.unit_amount, view.currency),
            currency: view.currency.code,
            interval: item.interval,
            intervalCount: item.interval_count,
          }
        : null,
      period: period ?? null,
      paidAt: view.paidAt,
      cardBrand: view.cardBrand,
      cardLast4: view.cardLast4,
      receiptUrl: receiptUrl(baseUrl, token),
    },
  });
  await sendOnce(deps, mailer, { eventId: detail.id, to: customer.email, mail, owner: scope });
});
