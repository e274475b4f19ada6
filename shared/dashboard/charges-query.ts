/**
 * The query of the dashboard's charges page: the API payments list's own parameters (limit,
 * created_before, status: the same schema reads them) and `find`, one charge found by its id or its
 * payment's id.
 */
import * as v from 'valibot';
import { queryParameter } from '../core/query.ts';
import { validate } from '../core/validation.ts';
import { PaymentListQuerySchema } from '../payments/list-query.ts';

/** GET /dashboard/charges's parameters, as the route row documents them. */
export const ChargesPageQuerySchema = v.object({
  ...PaymentListQuerySchema.entries,
  find: queryParameter(
    'string',
    'A charge id (`ch_…`) or a payment id (`pay_…`): 303 to that charge; otherwise the list with a 404 saying none has it.',
    v.string(),
  ),
});

/** The search text of a charges page's query: trimmed, clean one-line text, or '' when none. Malformed is InvalidInput. */
export const findOf = (query: Record<string, string | undefined>): string =>
  validate(v.object({ find: ChargesPageQuerySchema.entries.find }), query).find ?? '';
