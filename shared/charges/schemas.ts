/** The charge as answers show it; the legacy charge and the payment lists answer with it, the OpenAPI document shows it. */
import * as v from 'valibot';

const major = (description: string) =>
  v.pipe(v.number(), v.description(`${description} In major units, for display.`));
const rate = v.pipe(v.number(), v.description('Six significant digits.'));

/**
 * The charge list view (docs/design.md#charges): the legacy charge's 201 and every item of the
 * payment lists.
 */
export const ChargeViewSchema = v.strictObject({
  id: v.pipe(v.string(), v.description('`ch_` and 24 characters; refunds name it.')),
  payment_id: v.pipe(
    v.nullable(v.string()),
    v.description('The `pay_` payment it pays; null for a subscription, a payment link or a legacy charge.'),
  ),
  subscription_id: v.pipe(
    v.nullable(v.string()),
    v.description(
      "The `sub_` subscription whose period it pays (its first, a trial's end or a renewal); null otherwise.",
    ),
  ),
  payment_link_id: v.pipe(v.nullable(v.string()), v.description('The payment link it pays; null otherwise.')),
  product: v.null(),
  customer: v.nullable(v.string()),
  amount: major('The amount charged.'),
  fee: major('The processing fee.'),
  currency: v.pipe(v.string(), v.description('Lower-case code.')),
  description: v.nullable(v.string()),
  statement_description: v.string(),
  status: v.literal('succeeded'),
  capture: v.boolean(),
  created_on: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
  refund: v.pipe(
    v.nullable(v.strictObject({ amount: major('Refunded so far.'), refunded: v.boolean() })),
    v.description('Null until a refund; `refunded` is true once the whole amount was refunded.'),
  ),
  amount_refunded: major('What refunds have given back so far (0 when none).'),
  captured: v.null(),
  test: v.boolean(),
  card_last4: v.string(),
  card_exp_month: v.string(),
  card_exp_year: v.string(),
  card_country: v.string(),
  card_brand: v.string(),
  exchange_usd_to_payout: rate,
  exchange_original_payout_to_usd: rate,
  exchange_usd_to_local: rate,
  exchange_original_local_to_usd: rate,
  currency_local: v.string(),
  net: major('The amount less the fee.'),
  net_currency: v.string(),
});
export type ChargeView = v.InferOutput<typeof ChargeViewSchema>;
