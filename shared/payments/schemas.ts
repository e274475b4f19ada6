/** Request bodies of the payment endpoints; handlers validate with them, the OpenAPI document shows them. */
import * as v from 'valibot';
import { metadataField } from '../core/metadata.ts';
import { currencyCodes, findCurrency } from '../core/money/currencies.ts';
import { amountBoundsByCurrency } from '../core/money/fields.ts';
import * as rules from '../core/rules.ts';
import { modeField, plainText, textField, webUrlFormat } from '../core/validation.ts';

export const paymentLimits = { description: 300, item: 100, items: 50, returnUrl: 2048 } as const;

export const CreatePaymentSchema = v.pipe(
  v.strictObject({
    amount: v.pipe(
      v.union([plainText(), v.number()], rules.amount),
      v.description('Decimal in major units at the currency precision; at least the equivalent of USD 1.00.'),
    ),
    description: v.pipe(
      textField(paymentLimits.description, { lines: 'many' }),
      v.description('Shown on the checkout page; tab and line breaks allowed.'),
    ),
    currency: v.pipe(
      plainText({ message: rules.currency }),
      v.trim(),
      v.toUpperCase(),
      v.check((code) => findCurrency(code) !== undefined, rules.currency),
      // The codes the check finds, in the case answers use (any case is taken).
      v.metadata({ enum: [...currencyCodes] }),
      v.description(`One of ${currencyCodes.join(', ')}.`),
    ),
    items: v.pipe(
      v.array(textField(paymentLimits.item)),
      v.maxLength(paymentLimits.items),
      v.description('Informational labels, shown on the checkout page.'),
    ),
    return_url: v.pipe(
      plainText(),
      v.trim(),
      v.maxLength(paymentLimits.returnUrl),
      webUrlFormat(),
      v.description(
        'Absolute https URL (http allowed in test mode); the cardholder returns there with id_payment.',
      ),
    ),
    metadata: v.optional(metadataField(), null),
    test: v.optional(modeField()),
  }),
  // The service checks the amount against its currency (amountField, assertMinimum): the document
  // shows the same bounds per currency.
  v.metadata(amountBoundsByCurrency('amount', 'currency', 'USD')),
);
export type CreatePaymentInput = v.InferOutput<typeof CreatePaymentSchema>;

export const paymentStatuses = ['pending', 'completed'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

const timestamp = v.pipe(v.string(), v.description('ISO 8601 UTC.'));

/** The single view of a payment (GET /v1/payments/{id}), with `charge_id` (null until paid). */
export const PaymentViewSchema = v.strictObject({
  id: v.pipe(v.string(), v.description('`pay_` and 24 characters.')),
  amount: v.pipe(v.string(), v.description('Decimal in major units at the currency precision.')),
  currency: v.string(),
  description: v.string(),
  status: v.picklist(paymentStatuses),
  items: v.array(v.string()),
  customer_email: v.nullable(v.string()),
  return_url: v.string(),
  payment_method: v.pipe(v.nullable(v.string()), v.description('`card` once paid.')),
  card_last4: v.nullable(v.string()),
  card_brand: v.nullable(v.string()),
  charge_id: v.pipe(v.nullable(v.string()), v.description('The `ch_` charge, once paid; refunds name it.')),
  created_at: timestamp,
  updated_at: timestamp,
  test: v.boolean(),
  // Optional only for events stored before payments took it: every view written has it.
  metadata: v.pipe(
    v.optional(v.nullable(v.record(v.string(), v.unknown())), null),
    v.description("The merchant's own key-value pairs given at creation, or null."),
  ),
});
export type PaymentView = v.InferOutput<typeof PaymentViewSchema>;

/** The answer's `data` of POST /v1/payments/. */
export const CreatedPaymentSchema = v.strictObject({
  id_payment: v.string(),
  redirect: v.pipe(v.string(), v.description('The hosted checkout page to send the cardholder to.')),
});
