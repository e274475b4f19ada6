/** The query of the payments list (docs/design.md#lists): `limit`, `created_before`, `status`. */
import * as v from 'valibot';
import type { Charge } from '../charges/charge.ts';
import { listCharges } from '../charges/repository.ts';
import type { Scope } from '../core/account.ts';
import { queryParameter } from '../core/query.ts';
import * as rules from '../core/rules.ts';
import { validate } from '../core/validation.ts';
import type { Deps } from '../db/deps.ts';
import { paymentRules } from './messages.ts';

export const paymentListLimits = { defaultLimit: 100, maxLimit: 1000 } as const;

export interface PaymentListQuery {
  limit: number;
  createdBefore?: string;
  status?: string;
}

/** The query of GET /v1/payments/ (and /internal), as the handler parses it and the OpenAPI document lists it. */
export const PaymentListQuerySchema = v.pipe(
  v.object({
    limit: queryParameter(
      'integer',
      'At most this many charges (default 100, above 1000 taken as 1000).',
      v.pipe(
        v.string(),
        v.regex(/^\d+$/, rules.integer),
        v.transform(Number),
        v.minValue(1),
        v.transform((limit) => Math.min(limit, paymentListLimits.maxLimit)),
      ),
    ),
    created_before: queryParameter(
      'string',
      'Only charges created before this ISO 8601 time.',
      v.pipe(
        v.string(),
        v.check((text) => !Number.isNaN(Date.parse(text)), paymentRules.timestamp),
        v.transform((text) => new Date(Date.parse(text)).toISOString()),
        // Any time Date.parse reads is taken; the document promises the RFC 3339 form.
        v.metadata({ format: 'date-time' }),
      ),
    ),
    status: queryParameter(
      'string',
      '`succeeded` (every charge); another value lists nothing.',
      v.pipe(v.string(), v.toLowerCase()),
    ),
  }),
  v.transform(
    ({ limit, created_before, status }): PaymentListQuery => ({
      limit: limit ?? paymentListLimits.defaultLimit,
      ...(created_before ? { createdBefore: created_before } : {}),
      ...(status ? { status } : {}),
    }),
  ),
);

/** The query of the payments list; a malformed value is InvalidInput. */
export const parsePaymentListQuery = (query: Record<string, string | undefined>): PaymentListQuery =>
  validate(PaymentListQuerySchema, query);

/**
 * The charges a payments list query answers, newest first: GET /v1/payments/ and the dashboard's
 * charges page both list through here. Every charge succeeded when it was made, so a status filter
 * for anything else lists nothing.
 */
export function listPaymentCharges(deps: Deps, scope: Scope, query: PaymentListQuery): Promise<Charge[]> {
  if (query.status !== undefined && query.status !== 'succeeded') return Promise.resolve([]);
  return listCharges(deps, scope, query);
}
