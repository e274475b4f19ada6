/**
 * A charge (`ch_…`): money actually taken from a card, with its fee and net (docs/design.md#money),
 * what has been refunded of it, and whether it has been paid out. Every payment source (checkout,
 * legacy charge, later renewals and payment links) makes one; the payments list is the list of
 * charges.
 */
import type { CardSummary, ConnectorName } from '../acquirer/acquirer.ts';
import type { Mode } from '../core/account.ts';
import { chargeFee, exchangeFields, formatMajor } from '../core/money/fees.ts';
import { currencyOf } from '../core/money/fields.ts';
import type { ChargeView } from './schemas.ts';

/** Live charges are paid out this long after they are made; test charges never are. */
export const payoutDelayDays = 2;

export type ChargeSource = 'checkout' | 'legacy' | 'subscription' | 'link';

export interface Charge {
  id: string;
  developer_id: number;
  mode: Mode;
  source: ChargeSource;
  /** What it pays for: a payment, a subscription's period, a payment link; null where none. */
  payment_id: string | null;
  subscription_id?: string | null;
  payment_link_id?: string | null;
  /** The attempt that made it (absent on charges stored before attempts existed). */
  attempt_id?: string | null;
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
  /**
   * The connector that made it (docs/design.md#connectors), which its refunds go to whatever the mode
   * is connected to later. Absent: the simulated acquirer.
   */
  connector?: ConnectorName;
  /** For a connector of several accounts (Stripe): the account that made it, where its refunds go. */
  connector_account?: string;
  /**
   * What is left to refund, in minor units: the condition every refund is checked against. A refund
   * takes its amount off before the acquirer is asked (`refunds_pending` holds it meanwhile), so
   * refunds racing one another never exceed the charge.
   */
  refundable: number;
  /** What refunds the acquirer made have given back. */
  refunded: number;
  /** What refunds under way at the acquirer hold; a charge is never paid out while any is. */
  refunds_pending?: number;
  /** When a live charge becomes due for payout; null for test charges. */
  payout_due_at: string | null;
  paid_out_at: string | null;
  /**
   * What its payout sent (its net less what was refunded, never below 0), fixed in the write that
   * marked it paid out; absent until then (and on charges paid out before it was kept).
   */
  payout_amount?: number;
  /**
   * The payout of an acquirer that pays out on its own (Stripe) that settled this charge, as its
   * event recorded it: its reference, when it reached the bank, and the net paid out of the charge.
   */
  settled_payout?: { id: string; paid_at: string; net: number };
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
  subscriptionId?: string | null;
  paymentLinkId?: string | null;
  attemptId: string;
  customerId: string | null;
  amount: number;
  currency: string;
  description: string | null;
  statementDescription: string;
  card: CardSummary;
  acquirerReference: string;
  /** The connector that approved it. @default 'simulated' */
  connector?: ConnectorName | undefined;
  /** For a connector of several accounts (Stripe): the account it was made in. */
  connectorAccount?: string | undefined;
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
    subscription_id: input.subscriptionId ?? null,
    payment_link_id: input.paymentLinkId ?? null,
    attempt_id: input.attemptId,
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
    refunds_pending: 0,
    // cobro pays out what the simulated acquirer holds; a real acquirer (Stripe) pays out on its own.
    payout_due_at: input.mode === 'live' && (input.connector ?? 'simulated') === 'simulated' ? due : null,
    paid_out_at: null,
    ...(input.connector && input.connector !== 'simulated' ? { connector: input.connector } : {}),
    ...(input.connectorAccount ? { connector_account: input.connectorAccount } : {}),
    created_at: now,
    updated_at: now,
  };
}

export function chargeView(charge: Charge): ChargeView {
  const currency = currencyOf(charge);
  return {
    id: charge.id,
    payment_id: charge.payment_id,
    subscription_id: charge.subscription_id ?? null,
    payment_link_id: charge.payment_link_id ?? null,
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
        ? {
            amount: formatMajor(charge.refunded, currency),
            refunded: charge.refunded >= charge.amount,
          }
        : null,
    amount_refunded: formatMajor(charge.refunded, currency),
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

/**
 * A charge recorded for an approval whose purpose went away while it ran (a subscription canceled,
 * a payment link deleted): nothing is left to refund by request, its whole amount is held by the
 * refund made at once (docs/design.md#late-approvals).
 */
export const refundedAtOnce = (charge: Charge): Charge => ({
  ...charge,
  refundable: 0,
  refunds_pending: charge.amount,
});
