/** The legacy direct charge (docs/design.md#legacy-charge): its form fields and how a decline answers. */
import * as v from 'valibot';
import type { DeclineReason } from '../acquirer/acquirer.ts';
import { Declined } from '../core/errors.ts';
import { currencyCodes, findCurrency } from '../core/money/currencies.ts';
import { amountBoundsByCurrency } from '../core/money/fields.ts';
import * as rules from '../core/rules.ts';
import { plainText } from '../core/validation.ts';

const text = (description: string) => v.pipe(plainText(), v.trim(), v.description(description));

/** Form fields (multipart or urlencoded) of POST /v1/charges/simple/create/. */
export const LegacyChargeSchema = v.pipe(
  v.object({
    amount: v.pipe(
      v.union([plainText(), v.number()], rules.amount),
      v.description('Major units, e.g. "10.00".'),
    ),
    currency: v.pipe(
      plainText({ message: rules.currency }),
      v.trim(),
      v.toUpperCase(),
      v.check((code) => findCurrency(code) !== undefined, rules.currency),
      v.metadata({ enum: currencyCodes.map((code) => code.toLowerCase()) }),
      v.description(
        `Lower-case code (any case is taken): ${currencyCodes.map((code) => code.toLowerCase()).join(', ')}.`,
      ),
    ),
    description: v.optional(v.pipe(plainText({ lines: 'many' }), v.trim(), v.maxLength(300)), ''),
    entity_description: v.optional(v.pipe(plainText({ lines: 'many' }), v.trim(), v.maxLength(300)), ''),
    // The card's checks (validateCard) as far as a schema states them; its Luhn check digit and
    // whether it has expired are in the descriptions.
    credit_card_number: v.pipe(
      text(
        'The card number: 12 to 19 digits, spaces or dashes between groups allowed; its last digit is the Luhn check digit.',
      ),
      v.metadata({ pattern: '^[0-9]{12,19}$' }),
    ),
    credit_card_security_code_number: v.pipe(text('The CVC.'), v.metadata({ pattern: '^[0-9]{3,4}$' })),
    exp_month: v.pipe(
      v.union([plainText(), v.number()]),
      v.metadata({
        anyOf: [
          { type: 'integer', minimum: 1, maximum: 12 },
          { type: 'string', pattern: '^(?:0?[1-9]|1[0-2])$' },
        ],
      }),
      v.description('1 to 12; with exp_year, a month not yet over.'),
      v.transform(String),
    ),
    exp_year: v.pipe(
      v.union([plainText(), v.number()]),
      v.metadata({
        anyOf: [
          { type: 'integer', minimum: 2000, maximum: 2099 },
          { type: 'string', pattern: '^(?:[0-9]{2}|20[0-9]{2})$' },
        ],
      }),
      v.description('2 or 4 digits; with exp_month, a month not yet over.'),
      v.transform(String),
    ),
  }),
  // The service checks the amount against its currency (amountField, assertMinimum): the document
  // shows the same bounds per currency.
  v.metadata(amountBoundsByCurrency('amount', 'currency', 'USD', { lowerCaseCodes: true })),
);
export type LegacyChargeInput = v.InferOutput<typeof LegacyChargeSchema>;

const declineText: Record<DeclineReason, string> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired_card: 'Your card has expired.',
  incorrect_cvc: "Your card's security code is incorrect.",
  authentication_required:
    'The card requires 3-D Secure authentication, which this endpoint cannot perform; use POST /v1/payments/.',
  authentication_failed: 'The 3-D Secure authentication failed.',
  processing_error: 'The payment processor could not process the card; nothing was charged. Try again.',
};

/** A decline is 402 `{"error":{"code","type":"payment_failed","message","decline_reason"}}`. */
export function legacyDecline(reason: DeclineReason): Declined {
  return new Declined({
    error: {
      code: 'card_declined',
      type: 'payment_failed',
      message: declineText[reason],
      decline_reason: reason,
    },
  });
}
