/** The refund as answers show it; handlers answer with it, the OpenAPI document shows it. */
import * as v from 'valibot';

/** The reasons a merchant gives a refund (POST /v1/refunds/ takes these). */
export const refundReasons = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;
/**
 * The reasons of the refunds cobro makes by itself (docs/design.md#late-approvals): an approval whose
 * purpose went away while the acquirer was charging is recorded and refunded in full at once, saying
 * why (a subscription canceled, or renewed or changed before its prorated difference was recorded).
 */
export const automaticRefundReasons = [
  'subscription_canceled',
  'subscription_changed',
  'payment_link_deleted',
] as const;
export type RefundReason = (typeof refundReasons)[number] | (typeof automaticRefundReasons)[number];

export const RefundViewSchema = v.strictObject({
  id: v.pipe(v.string(), v.description('24 characters; `{refund_id}` in paths, with or without `re_`.')),
  provider_refund_id: v.pipe(v.string(), v.description('`re_` and the id.')),
  charge_id: v.string(),
  amount: v.pipe(v.string(), v.description('Decimal in major units at the currency precision.')),
  currency: v.pipe(v.string(), v.description('Lower-case code.')),
  reason: v.pipe(
    v.picklist([...refundReasons, ...automaticRefundReasons]),
    v.description(
      "The reason given; cobro's own refunds of a charge whose purpose went away while it was made say `subscription_canceled` or `payment_link_deleted`.",
    ),
  ),
  status: v.literal('succeeded'),
  test: v.boolean(),
  created_at: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
});
export type RefundView = v.InferOutput<typeof RefundViewSchema>;
