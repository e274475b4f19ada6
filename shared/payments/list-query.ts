/** The query of the payments list (D9): `limit`, `created_before`, `status`. */
import { InvalidInput, type Problem } from '../http/validation.ts';

export const paymentListLimits = { defaultLimit: 100, maxLimit: 1000 } as const;

export const paymentListParameters = [
  {
    name: 'limit',
    type: 'integer',
    description: 'At most this many charges (default 100, above 1000 taken as 1000).',
  },
  { name: 'created_before', type: 'string', description: 'Only charges created before this ISO 8601 time.' },
  { name: 'status', type: 'string', description: '`succeeded` (every charge); another value lists nothing.' },
] as const;

export interface PaymentListQuery {
  limit: number;
  createdBefore?: string;
  status?: string;
}

export function parsePaymentListQuery(query: Record<string, string | undefined>): PaymentListQuery {
  const problems: Problem[] = [];
  let limit: number = paymentListLimits.defaultLimit;
  const rawLimit = query.limit?.trim();
  if (rawLimit) {
    if (!/^\d+$/.test(rawLimit)) problems.push({ field: 'limit', rule: 'integer' });
    else if (Number(rawLimit) < 1)
      problems.push({ field: 'limit', rule: 'min_value', params: { limit: '1' } });
    else limit = Math.min(Number(rawLimit), paymentListLimits.maxLimit);
  }
  let createdBefore: string | undefined;
  const rawBefore = query.created_before?.trim();
  if (rawBefore) {
    const time = Date.parse(rawBefore);
    if (Number.isNaN(time)) problems.push({ field: 'created_before', rule: 'timestamp' });
    else createdBefore = new Date(time).toISOString();
  }
  if (problems.length) throw new InvalidInput(problems);
  const status = query.status?.trim().toLowerCase() || undefined;
  return { limit, ...(createdBefore ? { createdBefore } : {}), ...(status ? { status } : {}) };
}
