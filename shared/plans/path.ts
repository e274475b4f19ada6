/** The `{id}` of a plan path: a UUID (D4); anything else names no plan (404). */
import { NotFound } from '../core/errors.ts';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function planIdParam(value: string | undefined): string {
  if (!value || !uuid.test(value)) throw new NotFound('plan_not_found');
  return value.toLowerCase();
}
