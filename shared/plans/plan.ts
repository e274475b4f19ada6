/**
 * The plan: what is stored, how a request becomes one, and how it is answered. Pure functions;
 * storage is in ./repository.ts.
 */
import { randomUUID } from 'node:crypto';
import { merchantName, statementDescriptor } from '../accounts/account.ts';
import type { Account } from '../accounts/repository.ts';
import { assertModeFlags, type Mode } from '../core/account.ts';
import { formatAmount, scaled } from '../core/money/amount.ts';
import { type Currency, findCurrency } from '../core/money/currencies.ts';
import { amountField, currencyOf } from '../core/money/fields.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput } from '../core/validation.ts';
import type { StoredImage } from '../media/images.ts';
import { imageUrl } from '../media/images.ts';
import {
  type CreatePlanInput,
  type Interval,
  maxYearsBetweenCharges,
  type PlanView,
  planLimits,
} from './schemas.ts';

/** Price filters compare amounts of every currency at this many decimals (the most any currency has). */
export const priceScale = 3;

/** A plan as the table keeps it (keys aside). */
export interface Plan {
  id: string;
  developer_id: number;
  mode: Mode;
  name: string;
  /** Lower-cased name, for the case-insensitive search. */
  name_search: string;
  description: string;
  currency: string;
  /** Price in minor units of `currency`. */
  amount: number;
  /** Price at `priceScale` decimals, comparable across currencies for the price filters. */
  amount_scaled: number;
  interval: Interval;
  interval_count: number;
  trial_period_days: number;
  active: boolean;
  /** Active subscriptions; kept by the transactions that activate and cancel them. */
  subscriber_count: number;
  image: StoredImage | null;
  created_at: string;
  updated_at: string;
}

/** A new plan from a validated request; its image, if any, is already stored or kept as a URL. */
export function newPlan(
  input: CreatePlanInput,
  context: { developerId: number; mode: Mode; now: Date; image: StoredImage | null },
): Plan {
  assertModeFlags(input, context.mode);
  const currency = findCurrency(input.currency) as Currency;
  const amount = amountField(input.amount, currency);
  const months = input.interval === 'year' ? input.interval_count * 12 : input.interval_count;
  if (months > planLimits.maxMonthsBetweenCharges) {
    const limit = String(
      input.interval === 'year' ? maxYearsBetweenCharges : planLimits.maxMonthsBetweenCharges,
    );
    throw new InvalidInput([{ field: 'interval_count', rule: rules.max_value, params: { limit } }]);
  }
  const now = context.now.toISOString();
  return {
    id: randomUUID(),
    developer_id: context.developerId,
    mode: context.mode,
    name: input.name,
    name_search: input.name.toLowerCase(),
    description: input.description,
    currency: currency.code,
    amount,
    amount_scaled: scaled(amount, currency, priceScale),
    interval: input.interval,
    interval_count: input.interval_count,
    trial_period_days: input.trial_period_days,
    active: input.active,
    subscriber_count: 0,
    image: context.image,
    created_at: now,
    updated_at: now,
  };
}

/** The fields a PUT may change. */
export type PlanChanges = Partial<
  Pick<Plan, 'name' | 'description' | 'trial_period_days' | 'active' | 'image'>
>;

/** Only the changes that differ from the plan: an empty result is the "no changes" answer. */
export function effectiveChanges(plan: Plan, changes: PlanChanges): PlanChanges {
  const out: PlanChanges = {};
  if (changes.name !== undefined && changes.name !== plan.name) out.name = changes.name;
  if (changes.description !== undefined && changes.description !== plan.description)
    out.description = changes.description;
  if (changes.trial_period_days !== undefined && changes.trial_period_days !== plan.trial_period_days)
    out.trial_period_days = changes.trial_period_days;
  if (changes.active !== undefined && changes.active !== plan.active) out.active = changes.active;
  if (changes.image !== undefined && JSON.stringify(changes.image) !== JSON.stringify(plan.image))
    out.image = changes.image;
  return out;
}

/**
 * The plan as the API shows it. `email`, `company_name`, `page`, `image_dev` and
 * `credit_card_description` come from the account's profile, read when answering, so an
 * operator's `accounts update` shows on every plan at once.
 */
export function planView(plan: Plan, account: Account | undefined, baseUrl: string): PlanView {
  const companyName = merchantName(account);
  return {
    key: plan.id,
    information: {
      name: plan.name,
      created: plan.created_at,
      interval: plan.interval,
      interval_count: plan.interval_count,
      currency: plan.currency,
      amount: formatAmount(plan.amount, currencyOf(plan)),
      trial_period_days: plan.trial_period_days,
      credit_card_description: statementDescriptor(account),
      description: plan.description,
      email: account?.email ?? '',
      company_name: companyName,
      page: account?.page ?? null,
      active: plan.active,
      count: plan.subscriber_count,
      image: plan.image ? imageUrl(plan.image, baseUrl) : null,
      image_dev: account?.logo ?? null,
    },
    test: plan.mode === 'test',
  };
}
