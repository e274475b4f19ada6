/** The `{id}` of a plan path: a UUID; anything else names no plan (404). */
import { NotFound } from '../core/errors.ts';
import { uuidParam } from '../core/ids.ts';
import { planMessages } from './messages.ts';

export const planIdParam = (value: string | undefined): string =>
  uuidParam(value, () => new NotFound(planMessages.plan_not_found));
