/**
 * Checkout Sessions: made by the API, paid on the stand-in's Checkout page (or its control API, the
 * same code), expired by the API or by time. A session past its `expires_at` expires the first time
 * anything reads or pays it.
 */
import type Stripe from 'stripe';
import { type CardBehaviour, cardOutcome, type Decline, declines, testCard } from './cards.ts';
import { type Context, emit, get, owned } from './context.ts';
import { isStripeCurrency, majorUnits, maximumAmount, minimumCharge } from './currencies.ts';
import { invalidRequest } from './errors.ts';
import { example } from './fixtures.ts';
import { customerObject, paymentIntentObject, paymentMethodObject, setupIntentObject } from './objects.ts';
import type { Params } from './params.ts';
import { attemptPayment } from './payments.ts';
import { type LineItem, newId, type PaymentMethodRecord, type SessionRecord } from './store.ts';

/** Stripe Checkout's locales. */
const locales = [
  'auto',
  'bg',
  'cs',
  'da',
  'de',
  'el',
  'en',
  'en-GB',
  'es',
  'es-419',
  'et',
  'fi',
  'fil',
  'fr',
  'fr-CA',
  'hr',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'mt',
  'nb',
  'nl',
  'pl',
  'pt',
  'pt-BR',
  'ro',
  'ru',
  'sk',
  'sl',
  'sv',
  'th',
  'tr',
  'vi',
  'zh',
  'zh-HK',
  'zh-TW',
] as const;

const minExpiry = 30 * 60;
const maxExpiry = 24 * 60 * 60;

function readUrl(params: Params, key: string): string | undefined {
  const value = params.string(key, { max: 5000 });
  if (value === undefined) return undefined;
  // `{CHECKOUT_SESSION_ID}` is not a valid URL character sequence; it is replaced on the way out.
  let ok = false;
  try {
    ok = ['http:', 'https:'].includes(new URL(value.replaceAll('{CHECKOUT_SESSION_ID}', 'x')).protocol);
  } catch {
    ok = false;
  }
  if (!ok) throw invalidRequest('Not a valid URL', { code: 'url_invalid', param: params.name(key) });
  return value;
}

function readCurrency(params: Params, key: string, required = false): string | undefined {
  const value = params.string(key, { required })?.toLowerCase();
  if (value !== undefined && !isStripeCurrency(value))
    throw invalidRequest(
      `Invalid currency: ${value}. Stripe currently supports these currencies: usd, eur, …`,
      {
        code: 'parameter_invalid_string',
        param: params.name(key),
      },
    );
  return value;
}

function readLineItems(params: Params): LineItem[] | undefined {
  const items = params.objects('line_items');
  if (items === undefined) return undefined;
  if (items.length === 0)
    throw invalidRequest('Missing required param: line_items.', { code: 'parameter_missing' });
  return items.map((item) => {
    const price = item.string('price');
    if (price !== undefined)
      throw invalidRequest(`No such price: '${price}'`, {
        code: 'resource_missing',
        param: item.name('price'),
      });
    const data = item.object('price_data');
    if (!data)
      throw invalidRequest(`Missing required param: ${item.name('price_data')}.`, {
        code: 'parameter_missing',
        param: item.name('price_data'),
      });
    const currency = readCurrency(data, 'currency', true) as string;
    const unitAmount = data.integer('unit_amount', { required: true, min: 1, max: maximumAmount }) as number;
    const product = data.object('product_data');
    if (!product)
      throw invalidRequest(`Missing required param: ${data.name('product_data')}.`, {
        code: 'parameter_missing',
        param: data.name('product_data'),
      });
    const name = product.string('name', { required: true, max: 250 }) as string;
    product.string('description', { max: 40_000 });
    product.metadata('metadata');
    const quantity = item.integer('quantity', { required: true, min: 1, max: 999_999 }) as number;
    return { name, currency, unit_amount: unitAmount, quantity };
  });
}

/** POST /v1/checkout/sessions. */
export function createSession(ctx: Context, params: Params): Stripe.Checkout.Session {
  const mode = params.string('mode', { required: true, oneOf: ['payment', 'setup'] }) as 'payment' | 'setup';
  const lineItems = readLineItems(params);
  const currency = readCurrency(params, 'currency');
  const customerId = params.string('customer');
  const customerEmail = params.string('customer_email', { max: 800 });
  const customerCreation = params.string('customer_creation', { oneOf: ['always', 'if_required'] });
  const paymentIntentData = params.object('payment_intent_data');
  const pid = paymentIntentData && {
    setup_future_usage: (paymentIntentData.string('setup_future_usage', {
      oneOf: ['on_session', 'off_session'],
    }) ?? null) as 'on_session' | 'off_session' | null,
    metadata: paymentIntentData.metadata('metadata') ?? {},
    description: paymentIntentData.string('description', { max: 1000 }) ?? null,
    statement_descriptor: paymentIntentData.string('statement_descriptor', { max: 22 }) ?? null,
    statement_descriptor_suffix: paymentIntentData.string('statement_descriptor_suffix', { max: 22 }) ?? null,
  };
  const setupIntentData = params.object('setup_intent_data');
  const sid = setupIntentData && {
    metadata: setupIntentData.metadata('metadata') ?? {},
    description: setupIntentData.string('description', { max: 1000 }) ?? null,
  };
  const metadata = params.metadata('metadata') ?? {};
  const clientReferenceId = params.string('client_reference_id', { max: 200 });
  const successUrl = readUrl(params, 'success_url');
  const cancelUrl = readUrl(params, 'cancel_url');
  const expiresAt = params.integer('expires_at');
  const locale = params.string('locale', { oneOf: locales });
  const methodTypes = params.strings('payment_method_types');
  params.string('ui_mode', { oneOf: ['hosted'] });
  params.string('submit_type', { oneOf: ['auto', 'pay', 'book', 'donate'] });
  params.done();

  if (methodTypes?.some((type) => type !== 'card'))
    throw invalidRequest('The stand-in takes only card payments: payment_method_types must be [card].', {
      param: 'payment_method_types',
    });
  if (customerId !== undefined && customerEmail !== undefined)
    throw invalidRequest('You may only specify one of these parameters: customer, customer_email.');
  if (customerId !== undefined && customerCreation !== undefined)
    throw invalidRequest('You may only specify one of these parameters: customer, customer_creation.');
  const now = ctx.store.now();
  if (expiresAt !== undefined && expiresAt < now + minExpiry)
    throw invalidRequest(
      'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
      { code: 'parameter_invalid_integer', param: 'expires_at' },
    );
  if (expiresAt !== undefined && expiresAt > now + maxExpiry)
    throw invalidRequest(
      'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
      { code: 'parameter_invalid_integer', param: 'expires_at' },
    );
  let amountTotal: number | null = null;
  let sessionCurrency: string | null = currency ?? null;
  if (mode === 'payment') {
    if (!lineItems)
      throw invalidRequest('Missing required param: line_items.', {
        code: 'parameter_missing',
        param: 'line_items',
      });
    if (setupIntentData)
      throw invalidRequest('You can not pass `setup_intent_data` in `payment` mode.', {
        param: 'setup_intent_data',
      });
    const currencies = new Set(lineItems.map((item) => item.currency));
    if (currencies.size > 1 || (currency !== undefined && !currencies.has(currency)))
      throw invalidRequest('All line items must have the same currency as the Checkout Session.', {
        param: 'line_items',
      });
    sessionCurrency = lineItems[0]?.currency ?? null;
    amountTotal = lineItems.reduce((sum, item) => sum + item.unit_amount * item.quantity, 0);
    const minimum = minimumCharge(sessionCurrency as string);
    if (amountTotal < minimum)
      throw invalidRequest(
        `The Checkout Session's total amount due must add up to at least ${majorUnits(minimum, sessionCurrency as string)} ${sessionCurrency}`,
        { code: 'amount_too_small' },
      );
    if (amountTotal > maximumAmount)
      throw invalidRequest("The Checkout Session's total amount due is too large.", {
        code: 'amount_too_large',
      });
  } else {
    if (lineItems)
      throw invalidRequest('You can not pass `line_items` in `setup` mode.', { param: 'line_items' });
    if (paymentIntentData)
      throw invalidRequest('You can not pass `payment_intent_data` in `setup` mode.', {
        param: 'payment_intent_data',
      });
    if (customerCreation !== undefined)
      throw invalidRequest('`customer_creation` can only be used in `payment` mode.', {
        param: 'customer_creation',
      });
    if (!currency && !methodTypes)
      throw invalidRequest('Missing required param: currency.', {
        code: 'parameter_missing',
        param: 'currency',
      });
  }
  if (customerId !== undefined) get(ctx, 'customers', customerId, 'customer');

  const session = example<Stripe.Checkout.Session>('checkout.session');
  const id = newId('cs', ctx.livemode);
  Object.assign(session, {
    id,
    created: now,
    expires_at: expiresAt ?? now + maxExpiry,
    livemode: ctx.livemode,
    mode,
    status: 'open',
    payment_status: 'unpaid',
    url: `${ctx.publicUrl}/pay/${id}`,
    amount_subtotal: amountTotal,
    amount_total: amountTotal,
    currency: sessionCurrency,
    customer: customerId ?? null,
    customer_email: customerEmail ?? null,
    customer_creation: mode === 'payment' ? (customerCreation ?? 'if_required') : null,
    customer_details: null,
    payment_intent: null,
    setup_intent: null,
    metadata,
    success_url: successUrl ?? null,
    cancel_url: cancelUrl ?? null,
    client_reference_id: clientReferenceId ?? null,
    locale: locale ?? null,
    payment_method_types: ['card'],
    after_expiration: null,
    allow_promotion_codes: null,
    automatic_tax: { enabled: false, liability: null, status: null, provider: null },
    consent: null,
    consent_collection: null,
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    invoice_creation: mode === 'payment' ? { ...session.invoice_creation, enabled: false } : null,
    payment_method_configuration_details: null,
    shipping_address_collection: null,
    shipping_cost: null,
    total_details: mode === 'payment' ? { amount_discount: 0, amount_shipping: 0, amount_tax: 0 } : null,
    currency_conversion: null,
    collected_information: null,
    adaptive_pricing: { enabled: false },
    managed_payments: null,
    saved_payment_method_options: null,
    submit_type: null,
    ui_mode: 'hosted',
  });
  ctx.store.add('checkoutSessions', {
    ...owned(ctx, session),
    lineItems: lineItems ?? [],
    paymentIntentData: pid ?? {
      setup_future_usage: null,
      metadata: {},
      description: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
    },
    setupIntentData: sid ?? { metadata: {}, description: null },
  });
  return session;
}

/** The session `id` of this key, expired first if its time has passed. */
export function readSession(ctx: Context, id: string): SessionRecord {
  const record = get(ctx, 'checkoutSessions', id);
  expireIfDue(ctx, record);
  return record;
}

/** Expires an open session whose `expires_at` has passed. */
export function expireIfDue(ctx: Context, record: SessionRecord): void {
  if (record.object.status === 'open' && ctx.store.now() >= record.object.expires_at) expire(ctx, record);
}

function expire(ctx: Context, record: SessionRecord): void {
  const session = record.object;
  session.status = 'expired';
  session.url = null;
  if (session.payment_intent) {
    // Checkout cancels the PaymentIntent of a session nobody finished paying.
    const intent = ctx.store.collections.paymentIntents.get(session.payment_intent as string);
    if (intent && intent.object.status === 'requires_payment_method') {
      Object.assign(intent.object, {
        status: 'canceled',
        canceled_at: ctx.store.now(),
        cancellation_reason: 'abandoned',
      });
      emit(ctx, 'payment_intent.canceled', intent.object);
    }
  }
  ctx.store.changed();
  emit(ctx, 'checkout.session.expired', session);
}

/** POST /v1/checkout/sessions/:id/expire. */
export function expireSession(ctx: Context, id: string, params: Params): Stripe.Checkout.Session {
  params.done();
  const record = readSession(ctx, id);
  if (record.object.status !== 'open')
    throw invalidRequest(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${record.object.status}".`,
      { code: 'checkout_session_not_open' },
    );
  expire(ctx, record);
  return record.object;
}

/** What a payer gives on the Checkout page (or the control API in their place). */
export interface PayerInput {
  card: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
  email: string | null;
  name: string | null;
}

export type PayResult =
  | { status: 'complete'; redirect: string | null }
  | {
      status: 'open' | 'complete' | 'expired';
      /** 400: the form was not filled in right, or the session is closed; 402: the card was declined. */
      httpStatus: 400 | 402;
      error: {
        type: 'card_error' | 'invalid_request_error';
        code: string;
        decline_code?: string;
        message: string;
      };
    };

/** The e-mail the session already knows (customer_email, or its customer's), which the payer cannot change. */
export function knownEmail(ctx: Context, record: SessionRecord): string | null {
  const session = record.object;
  if (session.customer_email) return session.customer_email;
  if (typeof session.customer === 'string')
    return ctx.store.collections.customers.get(session.customer)?.object.email ?? null;
  return null;
}

function inputError(code: string, message: string): PayResult {
  return { status: 'open', httpStatus: 400, error: { type: 'invalid_request_error', code, message } };
}

function declined(decline: Decline): PayResult {
  return {
    status: 'open',
    httpStatus: 402,
    error: {
      type: 'card_error',
      code: decline.code,
      ...(decline.decline_code ? { decline_code: decline.decline_code } : {}),
      message: decline.message,
    },
  };
}

/** Pays (or saves a card for) the session as its payer, the way the Checkout page's form does. */
export function paySession(ctx: Context, record: SessionRecord, input: PayerInput): PayResult {
  expireIfDue(ctx, record);
  const session = record.object;
  if (session.status !== 'open')
    return {
      status: session.status as 'complete' | 'expired',
      httpStatus: 400,
      error: {
        type: 'invalid_request_error',
        code: 'checkout_session_not_open',
        message:
          session.status === 'expired'
            ? 'This Checkout Session has expired.'
            : 'This Checkout Session is already complete.',
      },
    };
  const digits = input.card.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return inputError('incomplete_number', 'Your card number is incomplete.');
  if (!(input.exp_month >= 1 && input.exp_month <= 12))
    return inputError('invalid_expiry_month', "Your card's expiration month is invalid.");
  const year = input.exp_year < 100 ? 2000 + input.exp_year : input.exp_year;
  const today = new Date(ctx.store.now() * 1000);
  const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  if (year * 12 + (input.exp_month - 1) < thisMonth)
    return inputError('invalid_expiry_year', "Your card's expiration date is in the past.");
  if (!/^\d{3,4}$/.test(input.cvc))
    return inputError('incomplete_cvc', "Your card's security code is incomplete.");
  const email = knownEmail(ctx, record) ?? input.email;
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email))
    return inputError('email_invalid', 'Your email address is invalid.');

  const card = testCard(digits);
  const details = { number: digits, brand: card.brand, exp_month: input.exp_month, exp_year: year };
  const billing = { email, name: input.name };
  if (session.mode === 'setup') return saveCard(ctx, record, card.behaviour, details, billing);

  const pid = record.paymentIntentData;
  let intent = session.payment_intent
    ? ctx.store.collections.paymentIntents.get(session.payment_intent as string)
    : undefined;
  if (!intent) {
    // Checkout makes the session's PaymentIntent at the first try.
    intent = owned(
      ctx,
      paymentIntentObject(ctx, {
        amount: session.amount_total as number,
        currency: session.currency as string,
        customer: (session.customer as string | null) ?? null,
        payment_method: null,
        metadata: { ...pid.metadata },
        description: pid.description,
        setup_future_usage: pid.setup_future_usage,
        statement_descriptor: pid.statement_descriptor,
        statement_descriptor_suffix: pid.statement_descriptor_suffix,
        receipt_email: null,
      }),
    );
    ctx.store.add('paymentIntents', intent);
    session.payment_intent = intent.object.id;
  }
  const saving = pid.setup_future_usage !== null;
  const method: PaymentMethodRecord = {
    ...owned(ctx, paymentMethodObject(ctx, details, billing, null)),
    behaviour: card.behaviour,
  };
  ctx.store.add('paymentMethods', method);
  // The customer comes only with a payment that goes through.
  const outcome = attemptPayment(ctx, intent, method, 'checkout_payment');
  // On this page 3-D Secure counts as passed, so a card either goes through or is declined.
  if (typeof outcome === 'object') return declined(outcome);
  let customer = (session.customer as string | null) ?? null;
  if (customer === null && (session.customer_creation === 'always' || saving))
    customer = makeCustomer(ctx, billing);
  if (saving) method.object.customer = customer;
  intent.object.customer = customer;
  const charge = ctx.store.collections.charges.get(intent.object.latest_charge as string);
  if (charge) charge.object.customer = customer;
  return complete(ctx, record, customer, billing, {
    payment_intent: intent.object.id,
    payment_status: 'paid',
  });
}

function saveCard(
  ctx: Context,
  record: SessionRecord,
  behaviour: CardBehaviour,
  details: Parameters<typeof paymentMethodObject>[1],
  billing: { email: string; name: string | null },
): PayResult {
  const outcome = ctx.refuse ? declines.processingError : cardOutcome(behaviour, 'checkout_setup');
  if (typeof outcome === 'object') return declined(outcome);
  const customer = (record.object.customer as string | null) ?? makeCustomer(ctx, billing);
  const method: PaymentMethodRecord = {
    ...owned(ctx, paymentMethodObject(ctx, details, billing, customer)),
    behaviour,
  };
  ctx.store.add('paymentMethods', method);
  const intent = owned(
    ctx,
    setupIntentObject(ctx, {
      customer,
      payment_method: method.object.id,
      metadata: { ...record.setupIntentData.metadata },
      description: record.setupIntentData.description,
    }),
  );
  ctx.store.add('setupIntents', intent);
  emit(ctx, 'setup_intent.succeeded', intent.object);
  return complete(ctx, record, customer, billing, {
    setup_intent: intent.object.id,
    payment_status: 'no_payment_required',
  });
}

function makeCustomer(ctx: Context, billing: { email: string; name: string | null }): string {
  const customer = owned(
    ctx,
    customerObject(ctx, {
      email: billing.email,
      name: billing.name,
      metadata: {},
      description: null,
      phone: null,
    }),
  );
  ctx.store.add('customers', customer);
  return customer.object.id;
}

function complete(
  ctx: Context,
  record: SessionRecord,
  customer: string | null,
  billing: { email: string; name: string | null },
  fields: Partial<Stripe.Checkout.Session>,
): PayResult {
  const session = record.object;
  Object.assign(session, fields, {
    status: 'complete',
    url: null,
    customer,
    customer_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: billing.email,
      name: billing.name,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
      business_name: null,
      individual_name: null,
    },
  });
  ctx.store.changed();
  emit(ctx, 'checkout.session.completed', session);
  return {
    status: 'complete',
    redirect: session.success_url
      ? session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id)
      : null,
  };
}
