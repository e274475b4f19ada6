/** The query of GET /v1/refunds/: `charge_id` narrows the list to one charge. */
import * as v from 'valibot';
import { queryParameter } from '../core/query.ts';
import { validate } from '../core/validation.ts';

/** The query of GET /v1/refunds/, as the handler parses it and the OpenAPI document lists it. */
export const RefundListQuerySchema = v.object({
  charge_id: queryParameter('string', 'Only the refunds of this charge.', v.string()),
});

/** The charge a refund list is narrowed to, if any. */
export const parseRefundListQuery = (query: Record<string, string | undefined>): { chargeId?: string } => {
  const { charge_id: chargeId } = validate(RefundListQuerySchema, query);
  return chargeId ? { chargeId } : {};
};
