/** Request bodies of the payment endpoints; handlers validate with them, the OpenAPI document shows them. */
import * as v from 'valibot';
import { textField } from '../http/validation.ts';
import { currencyCodes, findCurrency } from '../money/currencies.ts';

export const paymentLimits = { description: 300, item: 100, items: 50, returnUrl: 2048 } as const;

export const CreatePaymentSchema = v.strictObject({
  amount: v.pipe(
    v.union([v.string(), v.number()], 'amount'),
    v.description('Decimal in major units at the currency precision; at least the equivalent of USD 1.00.'),
  ),
  description: v.pipe(textField(paymentLimits.description), v.description('Shown on the checkout page.')),
  currency: v.pipe(
    v.string('currency'),
    v.trim(),
    v.toUpperCase(),
    v.check((code) => findCurrency(code) !== undefined, 'currency'),
    v.description(`One of ${currencyCodes.join(', ')}.`),
  ),
  items: v.pipe(
    v.array(textField(paymentLimits.item)),
    v.maxLength(paymentLimits.items),
    v.description('Informational labels, shown on the checkout page.'),
  ),
  return_url: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(paymentLimits.returnUrl),
    v.description(
      'Absolute https URL (http allowed in test mode); the cardholder returns there with id_payment.',
    ),
  ),
  test: v.optional(v.union([v.boolean(), v.picklist(['true', 'false'], 'boolean')], 'boolean')),
});
export type CreatePaymentInput = v.InferOutput<typeof CreatePaymentSchema>;
