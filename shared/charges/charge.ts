/**
 * A charge (`ch_…`): money actually taken from a card, with its fee and net (D5), what has been
 * refunded of it, and whether it has been paid out. Every payment source (checkout, legacy charge,
 * later renewals and payment links) makes one; the payments list (D9) is the list of charges.
 */
import type { CardSummary } from '../acquirer/acquirer.ts';
import type { Mode } from '../core/account.ts';
import { chargeFee, exchangeFields, formatMajor } from '../core/money/fees.ts';
import { currencyOf } from '../core/money/fields.ts';
import type { ChargeView } from './schemas.ts';

/** Live charges are paid out this long after they are made (D5); test charges never are. */
export const payoutDelayDays = 2;

export type ChargeSource = 'checkout' | 'legacy' | 'subscription' | 'link';

export interface Charge {
  id: string;
  developer_id: number;
  mode: Mode;
  source: ChargeSource;
  payment_id: string | null;
  customer_id: string | null;
  amount: number;
  fee: number;
  net: number;
  currency: string;
  description: string | null;
  statement_description: string;
  status: 'succeeded';
  card: CardSummary;
  acquirer_reference: string;
  /** What is left to refund, in minor units: the condition every refund is checked against. */
  refundable: number;
  refunded: number;
  /** When a live charge becomes due for payout; null for test charges. */
  payout_due_at: string | null;
  paid_out_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A new charge for an approved card. */
export function newCharge(input: {
  id: string;
  developerId: number;
  mode: Mode;
  source: ChargeSource;
  paymentId: string | null;
  customerId: string | null;
  amount: number;
  currency: string;
  description: string | null;
  statementDescription: string;
  card: CardSummary;
  acquirerReference: string;
  now: Date;
}): Charge {
  const { fee, net } = chargeFee(input.amount, currencyOf(input));
  const now = input.now.toISOString();
  const due = new Date(input.now.getTime() + payoutDelayDays * 86_400_000).toISOString();
  return {
    id: input.id,
    developer_id: input.developerId,
    mode: input.mode,
    source: input.source,
    payment_id: input.paymentId,
    customer_id: input.customerId,
    amount: input.amount,
    fee,
    net,
    currency: input.currency,
    description: input.description,
    statement_description: input.statementDescription,
    status: 'succeeded',
    card: input.card,
    acquirer_reference: input.acquirerReference,
    refundable: input.amount,
    refunded: 0,
    payout_due_at: input.mode === 'live' ? due : null,
    paid_out_at: null,
    created_at: now,
    updated_at: now,
  };
}

export function chargeView(charge: Charge): ChargeView {
  const currency = currencyOf(charge);
  return {
    id: charge.id,
    payment_id: charge.payment_id,
    product: null,
    customer: charge.customer_id,
    amount: formatMajor(charge.amount, currency),
    fee: formatMajor(charge.fee, currency),
    currency: charge.currency.toLowerCase(),
    description: charge.description,
    statement_description: charge.statement_description,
    status: charge.status,
    capture: true,
    created_on: charge.created_at,
    refund:
      charge.refunded > 0
        ? { amount: formatMajor(charge.refunded, currency), refunded: charge.refundable === 0 }
        : null,
    captured: null,
    test: charge.mode === 'test',
    card_last4: charge.card.last4,
    card_exp_month: String(charge.card.expMonth),
    card_exp_year: String(charge.card.expYear),
    card_country: charge.card.country,
    card_brand: charge.card.brand,
    ...exchangeFields(charge.amount, currency),
    net: formatMajor(charge.net, currency),
    net_currency: charge.currency.toLowerCase(),
  };
}
