/**
 * A payment (`pay_…`): what the merchant asked to be paid, the checkout session that collects it,
 * and how both are answered. Pure functions; storage is in ./repository.ts.
 */
import type { Mode } from '../core/account.ts';
import { Invalid } from '../core/errors.ts';
import { prefixedId, randomToken } from '../core/ids.ts';
import { coreMessages } from '../core/messages.ts';
import type { Metadata } from '../core/metadata.ts';
import { formatAmount } from '../core/money/amount.ts';
import { type Currency, findCurrency } from '../core/money/currencies.ts';
import { amountField, assertMinimum, currencyOf } from '../core/money/fields.ts';
import { InvalidInput } from '../core/validation.ts';
import { parseWebUrl } from '../core/web-url.ts';
import { paymentRules } from './messages.ts';
import type { CreatePaymentInput, PaymentStatus, PaymentView } from './schemas.ts';

/** A checkout token's length: 40 characters of [A-Za-z0-9] (238 bits), the page URL's secret. */
export const checkoutTokenLength = 40;

export interface Payment {
  id: string;
  developer_id: number;
  mode: Mode;
  amount: number;
  currency: string;
  description: string;
  items: string[];
  return_url: string;
  status: PaymentStatus;
  checkout_token: string;
  customer_id: string | null;
  customer_email: string | null;
  charge_id: string | null;
  payment_method: 'card' | null;
  card_last4: string | null;
  card_brand: string | null;
  /** The merchant's own pairs (shared/core/metadata.ts); absent on payments stored before it. */
  metadata?: Metadata | null;
  created_at: string;
  updated_at: string;
}

/**
 * An absolute https URL in live mode; http is allowed in test mode; a URL as cobro takes any
 * (shared/core/web-url.ts): no user info (the `user:pw@` of `https://user:pw@evil.com/` misleads
 * whoever reads it), and a host that is a DNS name or an IP literal (it ends up in the checkout
 * page's Content-Security-Policy). Kept as the URL parser writes it.
 */
export function checkReturnUrl(value: string, mode: Mode): string {
  const parsed = parseWebUrl(value);
  if ('problem' in parsed) {
    const rule =
      parsed.problem === 'host' || parsed.problem === 'credentials'
        ? paymentRules.return_url_host
        : parsed.problem === 'scheme' && mode === 'live'
          ? paymentRules.return_url_https
          : paymentRules.return_url;
    throw new InvalidInput([{ field: 'return_url', rule }]);
  }
  if (mode === 'live' && parsed.url.protocol !== 'https:') {
    throw new InvalidInput([{ field: 'return_url', rule: paymentRules.return_url_https }]);
  }
  return parsed.url.href;
}

/** A new pending payment from a validated request, with the token of its checkout session. */
export function newPayment(
  input: CreatePaymentInput,
  context: { developerId: number; mode: Mode; now: Date },
): Payment {
  const flag = input.test;
  if (flag !== undefined && flag !== (context.mode === 'test')) {
    throw new Invalid(coreMessages.mode_mismatch, { params: { field: 'test', mode: context.mode } });
  }
  const currency = findCurrency(input.currency) as Currency;
  const amount = amountField(input.amount, currency);
  assertMinimum(amount, currency);
  const now = context.now.toISOString();
  return {
    id: prefixedId('pay'),
    developer_id: context.developerId,
    mode: context.mode,
    amount,
    currency: currency.code,
    description: input.description,
    items: input.items,
    return_url: checkReturnUrl(input.return_url, context.mode),
    status: 'pending',
    checkout_token: randomToken(checkoutTokenLength),
    customer_id: null,
    customer_email: null,
    charge_id: null,
    payment_method: null,
    card_last4: null,
    card_brand: null,
    metadata: input.metadata ?? null,
    created_at: now,
    updated_at: now,
  };
}

export function paymentView(payment: Payment): PaymentView {
  return {
    id: payment.id,
    amount: formatAmount(payment.amount, currencyOf(payment)),
    currency: payment.currency,
    description: payment.description,
    status: payment.status,
    items: payment.items,
    customer_email: payment.customer_email,
    return_url: payment.return_url,
    payment_method: payment.payment_method,
    card_last4: payment.card_last4,
    card_brand: payment.card_brand,
    charge_id: payment.charge_id,
    created_at: payment.created_at,
    updated_at: payment.updated_at,
    test: payment.mode === 'test',
    metadata: payment.metadata ?? null,
  };
}

/** `return_url` with `id_payment` added to its query. */
export function returnUrlFor(payment: Pick<Payment, 'return_url' | 'id'>): string {
  const url = new URL(payment.return_url);
  url.searchParams.set('id_payment', payment.id);
  return url.toString();
}
