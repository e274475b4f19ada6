/** The legacy direct charge (docs/design.md#legacy-charge): its form fields and how a decline answers. */
import * as v from 'valibot';
import type { DeclineReason } from '../acquirer/acquirer.ts';
import { Declined } from '../core/errors.ts';
import { currencyCodes, findCurrency } from '../core/money/currencies.ts';
import * as rules from '../core/rules.ts';
import { plainText } from '../core/validation.ts';

const text = (description: string) => v.pipe(plainText(), v.trim(), v.description(description));

/** Form fields (multipart or urlencoded) of POST /v1/charges/simple/create/. */
export const LegacyChargeSchema = v.object({
  amount: v.pipe(
    v.union([plainText(), v.number()], rules.amount),
    v.description('Major units, e.g. "10.00".'),
  ),
  currency: v.pipe(
    plainText({ message: rules.currency }),
    v.trim(),
    v.toUpperCase(),
    v.check((code) => findCurrency(code) !== undefined, rules.currency),
    v.description(`Lower-case code: ${currencyCodes.map((code) => code.toLowerCase()).join(', ')}.`),
  ),
  description: v.optional(v.pipe(plainText({ lines: 'many' }), v.trim(), v.maxLength(300)), ''),
  entity_description: v.optional(v.pipe(plainText({ lines: 'many' }), v.trim(), v.maxLength(300)), ''),
  credit_card_number: text('The card number.'),
  credit_card_security_code_number: text('The CVC.'),
  exp_month: v.pipe(v.union([plainText(), v.number()]), v.transform(String)),
  exp_year: v.pipe(v.union([plainText(), v.number()]), v.transform(String)),
});
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
