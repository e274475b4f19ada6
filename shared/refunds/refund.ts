/** A refund of a charge: the record, how a request becomes one, and how it is answered. */
import * as v from 'valibot';
import type { Charge } from '../charges/charge.ts';
import type { Mode } from '../core/account.ts';
import { Conflict, Invalid } from '../core/errors.ts';
import { randomToken } from '../core/ids.ts';
import { coreMessages } from '../core/messages.ts';
import { formatAmount } from '../core/money/amount.ts';
import { amountField, amountInAnyCurrency, currencyOf } from '../core/money/fields.ts';
import * as rules from '../core/rules.ts';
import { modeField, nonBlank, plainText } from '../core/validation.ts';
import { refundMessages } from './messages.ts';
import { type RefundReason, type RefundView, refundReasons } from './schemas.ts';

export const CreateRefundSchema = v.strictObject({
  charge_id: v.pipe(
    plainText(),
    nonBlank(),
    v.trim(),
    v.minLength(1),
    v.description("The `ch_…` id of the charge: a payment's `charge_id`, not its `pay_…` id."),
  ),
  amount: v.optional(
    v.pipe(
      v.union([plainText(), v.number()], rules.amount),
      v.metadata(amountInAnyCurrency()),
      v.description(
        "Decimal in major units at the charge's currency precision; omitted refunds what remains of the charge.",
      ),
    ),
  ),
  reason: v.picklist(refundReasons),
  test: v.optional(modeField()),
});
export type CreateRefundInput = v.InferOutput<typeof CreateRefundSchema>;

export interface Refund {
  id: string;
  developer_id: number;
  mode: Mode;
  charge_id: string;
  amount: number;
  currency: string;
  reason: RefundReason;
  status: 'succeeded';
  /** The attempt that made it at the acquirer (absent on refunds stored before attempts existed). */
  attempt_id?: string;
  created_at: string;
  updated_at: string;
}

/** A refund's `provider_refund_id` is `re_` and its id; lookups take either. */
export const providerRefundId = (id: string) => `re_${id}`;
export const refundIdOf = (value: string) => (value.startsWith('re_') ? value.slice(3) : value);

/** A new refund's id (24 characters, no prefix). */
export const newRefundId = () => randomToken(24);

export function refundView(refund: Refund): RefundView {
  return {
    id: refund.id,
    provider_refund_id: providerRefundId(refund.id),
    charge_id: refund.charge_id,
    amount: formatAmount(refund.amount, currencyOf(refund)),
    currency: refund.currency.toLowerCase(),
    reason: refund.reason,
    status: refund.status,
    test: refund.mode === 'test',
    created_at: refund.created_at,
  };
}

/**
 * Why a charge cannot be refunded by `amount` (in this order: paid out, fully refunded, more than
 * the charge, more than what remains), or nothing when it can.
 */
export function refundProblem(charge: Charge, amount: number): Invalid | Conflict | undefined {
  if (charge.paid_out_at) return new Conflict(refundMessages.charge_paid_out);
  if (charge.refundable <= 0) return new Invalid(refundMessages.charge_already_refunded);
  if (amount > charge.amount) return new Invalid(refundMessages.refund_above_charge);
  if (amount > charge.refundable) {
    return new Invalid(refundMessages.refund_above_remaining, {
      params: { remaining: formatAmount(charge.refundable, currencyOf(charge)), currency: charge.currency },
    });
  }
  return undefined;
}

/**
 * The amount a validated request refunds from a charge that may take it (what remains when it
 * names none); throws the contract's error otherwise.
 */
export function refundAmount(input: CreateRefundInput, charge: Charge): number {
  if (input.test !== undefined && input.test !== (charge.mode === 'test')) {
    throw new Invalid(coreMessages.mode_mismatch, { params: { field: 'test', mode: charge.mode } });
  }
  const amount =
    input.amount === undefined ? charge.refundable : amountField(input.amount, currencyOf(charge));
  const problem = refundProblem(charge, amount);
  if (problem) throw problem;
  return amount;
}
