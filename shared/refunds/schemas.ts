/** The refund as answers show it; handlers answer with it, the OpenAPI document shows it. */
import * as v from 'valibot';

export const refundReasons = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;
export type RefundReason = (typeof refundReasons)[number];

export const RefundViewSchema = v.strictObject({
  id: v.pipe(v.string(), v.description('24 characters; `{refund_id}` in paths, with or without `re_`.')),
  provider_refund_id: v.pipe(v.string(), v.description('`re_` and the id.')),
  charge_id: v.string(),
  amount: v.pipe(v.string(), v.description('Decimal in major units at the currency precision.')),
  currency: v.pipe(v.string(), v.description('Lower-case code.')),
  reason: v.picklist(refundReasons),
  status: v.literal('succeeded'),
  test: v.boolean(),
  created_at: v.pipe(v.string(), v.description('ISO 8601 UTC.')),
});
export type RefundView = v.InferOutput<typeof RefundViewSchema>;
