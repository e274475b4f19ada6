/**
 * The Stripe objects the stand-in makes: each a deep copy of Stripe's example of its resource
 * (fixtures.ts) with the fields the stand-in knows set, so the fields it does not know keep the
 * shapes Stripe publishes. Fields of the example that would say something false (a discount, a
 * Connect transfer, a source) are set to what Stripe answers without them.
 */
import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { randomToken } from '../../../shared/core/ids.ts';
import type { Context } from './context.ts';
import { example } from './fixtures.ts';
import { newId } from './store.ts';

const nullAddress = { city: null, country: null, line1: null, line2: null, postal_code: null, state: null };

/** A Stripe account as GET /v1/account answers it: able to take charges and pay out. */
export function accountObject(input: {
  created: number;
  displayName: string | null;
  email: string | null;
  country: string;
  defaultCurrency: string;
}): Stripe.Account {
  const account = example<Stripe.Account>('account');
  const id = `acct_${randomToken(16)}`;
  Object.assign(account, {
    id,
    created: input.created,
    email: input.email,
    country: input.country,
    default_currency: input.defaultCurrency,
    charges_enabled: true,
    payouts_enabled: true,
    details_submitted: true,
    business_type: 'company',
    external_accounts: {
      object: 'list',
      data: [],
      has_more: false,
      url: `/v1/accounts/${id}/external_accounts`,
    },
  });
  account.business_profile = {
    ...account.business_profile,
    name: input.displayName,
  } as typeof account.business_profile;
  const settings = account.settings as Stripe.Account.Settings;
  settings.dashboard = { ...settings.dashboard, display_name: input.displayName };
  account.requirements = {
    ...(account.requirements as Stripe.Account.Requirements),
    currently_due: [],
    eventually_due: [],
    disabled_reason: null,
  };
  return account;
}

/** The name the merchant shows payers: the dashboard's display name, else the business's. */
export function merchantName(account: Stripe.Account): string {
  return account.settings?.dashboard.display_name ?? account.business_profile?.name ?? account.id;
}

export function customerObject(
  ctx: Context,
  input: {
    email: string | null;
    name: string | null;
    metadata: Record<string, string>;
    description: string | null;
    phone: string | null;
  },
): Stripe.Customer {
  const customer = example<Stripe.Customer>('customer');
  Object.assign(customer, {
    id: newId('cus'),
    created: ctx.store.now(),
    livemode: ctx.livemode,
    email: input.email,
    name: input.name,
    metadata: input.metadata,
    description: input.description,
    phone: input.phone,
    currency: null,
    discount: null,
    shipping: null,
    invoice_prefix: randomToken(8).toUpperCase(),
  });
  return customer;
}

export interface CardDetails {
  number: string;
  brand: 'visa' | 'mastercard';
  exp_month: number;
  exp_year: number;
}

/** A card PaymentMethod; `customer` when it is saved. */
export function paymentMethodObject(
  ctx: Context,
  card: CardDetails,
  billing: { email: string | null; name: string | null },
  customer: string | null,
): Stripe.PaymentMethod {
  const method = example<Stripe.PaymentMethod>('payment_method');
  const digits = card.number.replace(/\D/g, '');
  Object.assign(method, {
    id: newId('pm'),
    created: ctx.store.now(),
    livemode: ctx.livemode,
    customer,
    metadata: {},
    billing_details: {
      address: { ...nullAddress },
      email: billing.email,
      name: billing.name,
      phone: null,
      tax_id: null,
    },
    type: 'card',
  });
  method.card = {
    ...(method.card as Stripe.PaymentMethod.Card),
    brand: card.brand,
    display_brand: card.brand,
    last4: digits.slice(-4),
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    country: 'US',
    funding: 'credit',
    // Stripe's fingerprint names the number, so the same card saved twice is recognisable.
    fingerprint: createHash('sha256').update(`stand-in:${digits}`).digest('base64url').slice(0, 16),
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
    networks: { available: [card.brand], preferred: null },
    generated_from: null,
    wallet: null,
  };
  return method;
}

export function paymentIntentObject(
  ctx: Context,
  input: {
    amount: number;
    currency: string;
    customer: string | null;
    payment_method: string | null;
    metadata: Record<string, string>;
    description: string | null;
    setup_future_usage: 'on_session' | 'off_session' | null;
    statement_descriptor: string | null;
    statement_descriptor_suffix: string | null;
    receipt_email: string | null;
  },
): Stripe.PaymentIntent {
  const intent = example<Stripe.PaymentIntent>('payment_intent');
  const id = newId('pi');
  Object.assign(intent, {
    ...input,
    id,
    created: ctx.store.now(),
    livemode: ctx.livemode,
    client_secret: `${id}_secret_${randomToken(25)}`,
    status: input.payment_method ? 'requires_confirmation' : 'requires_payment_method',
    amount_received: 0,
    amount_capturable: 0,
    automatic_payment_methods: null,
    payment_method_types: ['card'],
    canceled_at: null,
    cancellation_reason: null,
    last_payment_error: null,
    latest_charge: null,
    next_action: null,
    processing: null,
    transfer_data: null,
    shipping: null,
    managed_payments: null,
  });
  return intent;
}

export function setupIntentObject(
  ctx: Context,
  input: {
    customer: string | null;
    payment_method: string;
    metadata: Record<string, string>;
    description: string | null;
  },
): Stripe.SetupIntent {
  const intent = example<Stripe.SetupIntent>('setup_intent');
  const id = newId('seti');
  Object.assign(intent, {
    ...input,
    id,
    created: ctx.store.now(),
    livemode: ctx.livemode,
    client_secret: `${id}_secret_${randomToken(25)}`,
    status: 'succeeded',
    usage: 'off_session',
    automatic_payment_methods: null,
    payment_method_types: ['card'],
    last_setup_error: null,
    next_action: null,
  });
  return intent;
}

/** A Charge of `intent` with `method`: paid, or failed with `failure`. */
export function chargeObject(
  ctx: Context,
  intent: Stripe.PaymentIntent,
  method: Stripe.PaymentMethod,
  failure: { code: string; decline_code?: string; message: string } | null,
): Stripe.Charge {
  const charge = example<Stripe.Charge>('charge');
  const id = newId('ch');
  const card = method.card as Stripe.PaymentMethod.Card;
  const paid = failure === null;
  Object.assign(charge, {
    id,
    created: ctx.store.now(),
    livemode: ctx.livemode,
    amount: intent.amount,
    amount_captured: paid ? intent.amount : 0,
    amount_refunded: 0,
    currency: intent.currency,
    customer: intent.customer,
    description: intent.description,
    metadata: { ...intent.metadata },
    payment_intent: intent.id,
    payment_method: method.id,
    billing_details: method.billing_details,
    balance_transaction: null,
    captured: paid,
    paid,
    refunded: false,
    disputed: false,
    status: paid ? 'succeeded' : 'failed',
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: paid ? 'approved_by_network' : 'declined_by_network',
      reason: failure?.decline_code ?? null,
      risk_level: 'normal',
      seller_message: paid
        ? 'Payment complete.'
        : 'The bank did not return any further details with this decline.',
      type: paid ? 'authorized' : 'issuer_declined',
    },
    receipt_email: intent.receipt_email,
    receipt_url: null,
    statement_descriptor: intent.statement_descriptor,
    statement_descriptor_suffix: intent.statement_descriptor_suffix,
    calculated_statement_descriptor: (
      intent.statement_descriptor ??
      ctx.account.object.settings?.dashboard.display_name ??
      'STAND-IN'
    )
      .slice(0, 22)
      .toUpperCase(),
    refunds: { object: 'list', data: [], has_more: false, url: `/v1/charges/${id}/refunds` },
    source: null,
    transfer_data: null,
    shipping: null,
  });
  const details = charge.payment_method_details as Stripe.Charge.PaymentMethodDetails;
  details.card = {
    ...(details.card as Stripe.Charge.PaymentMethodDetails.Card),
    brand: card.brand,
    last4: card.last4,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    country: card.country,
    funding: card.funding,
    fingerprint: card.fingerprint,
    network: card.brand,
    wallet: null,
    overcapture: { maximum_amount_capturable: intent.amount, status: 'unavailable' },
  };
  details.type = 'card';
  return charge;
}

/** Stripe's card fee here: 2.9 % + 30 minor units, rounded. */
export const cardFee = (amount: number): number => Math.round(amount * 0.029 + 30);

export function balanceTransactionObject(
  ctx: Context,
  input: {
    type: 'charge' | 'refund' | 'payout' | 'adjustment';
    reporting_category: string;
    amount: number;
    fee: number;
    fee_description?: string;
    currency: string;
    source: string;
    description: string | null;
    status: 'pending' | 'available';
    available_on: number;
  },
): Stripe.BalanceTransaction {
  const transaction = example<Stripe.BalanceTransaction>('balance_transaction');
  Object.assign(transaction, {
    id: newId('txn'),
    created: ctx.store.now(),
    amount: input.amount,
    fee: input.fee,
    net: input.amount - input.fee,
    fee_details:
      input.fee === 0
        ? []
        : [
            {
              amount: input.fee,
              application: null,
              currency: input.currency,
              description: input.fee_description ?? 'Stripe processing fees',
              type: 'stripe_fee',
            },
          ],
    currency: input.currency,
    source: input.source,
    description: input.description,
    status: input.status,
    available_on: input.available_on,
    type: input.type,
    reporting_category: input.reporting_category,
  });
  return transaction;
}

export function refundObject(
  ctx: Context,
  input: {
    amount: number;
    charge: Stripe.Charge;
    reason: string | null;
    metadata: Record<string, string>;
  },
): Stripe.Refund {
  const refund = example<Stripe.Refund>('refund');
  Object.assign(refund, {
    id: newId('re'),
    created: ctx.store.now(),
    amount: input.amount,
    currency: input.charge.currency,
    charge: input.charge.id,
    payment_intent: input.charge.payment_intent,
    payment_method: input.charge.payment_method,
    reason: input.reason,
    metadata: input.metadata,
    status: 'pending',
    balance_transaction: null,
    receipt_number: null,
  });
  return refund;
}

export function payoutObject(
  ctx: Context,
  input: { amount: number; currency: string; balance_transaction: string },
): Stripe.Payout {
  const payout = example<Stripe.Payout>('payout');
  Object.assign(payout, {
    ...input,
    id: newId('po'),
    created: ctx.store.now(),
    arrival_date: ctx.store.now(),
    livemode: ctx.livemode,
    destination: `ba_${randomToken(24)}`,
    metadata: {},
    status: 'in_transit',
    automatic: true,
    reconciliation_status: 'completed',
    trace_id: { status: 'unsupported', value: null },
  });
  return payout;
}

export function disputeObject(
  ctx: Context,
  input: {
    charge: Stripe.Charge;
    amount: number;
    reason: string;
    balance_transaction: Stripe.BalanceTransaction;
  },
): Stripe.Dispute {
  const dispute = example<Stripe.Dispute>('dispute');
  const card = input.charge.payment_method_details?.card;
  Object.assign(dispute, {
    id: newId('dp'),
    created: ctx.store.now(),
    livemode: ctx.livemode,
    amount: input.amount,
    currency: input.charge.currency,
    charge: input.charge.id,
    payment_intent: input.charge.payment_intent,
    reason: input.reason,
    status: 'needs_response',
    is_charge_refundable: false,
    balance_transactions: [input.balance_transaction],
    metadata: {},
    evidence_details: {
      ...dispute.evidence_details,
      due_by: ctx.store.now() + 7 * 86_400,
      has_evidence: false,
      past_due: false,
      submission_count: 0,
    },
    payment_method_details: {
      card: { brand: card?.brand ?? 'visa', case_type: 'chargeback', network_reason_code: null },
      type: 'card',
    },
    enhanced_eligibility_types: [],
  });
  return dispute;
}

export function webhookEndpointObject(
  ctx: Context,
  input: {
    url: string;
    enabled_events: string[];
    description: string | null;
    metadata: Record<string, string>;
    api_version: string | null;
  },
): Stripe.WebhookEndpoint {
  const endpoint = example<Stripe.WebhookEndpoint>('webhook_endpoint');
  Object.assign(endpoint, {
    ...input,
    id: newId('we'),
    created: ctx.store.now(),
    livemode: ctx.livemode,
    status: 'enabled',
    application: null,
  });
  return endpoint;
}
