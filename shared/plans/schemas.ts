/**
 * Request bodies of the plan endpoints. Handlers validate with them and the OpenAPI document shows
 * them. JSON and form bodies both pass: integers and booleans may arrive as text.
 */
import * as v from 'valibot';
import { currencyCodes, findCurrency } from '../core/money/currencies.ts';
import { amountBoundsByCurrency } from '../core/money/fields.ts';
import * as rules from '../core/rules.ts';
import {
  booleanField,
  integerField,
  integerRangePattern,
  modeField,
  plainText,
  textField,
} from '../core/validation.ts';
import { webUrlPattern } from '../core/web-url.ts';
import { imageRule } from '../media/images.ts';
import { mediaRules } from '../media/messages.ts';

export const planLimits = {
  name: 50,
  description: 300,
  /** A plan bills at least every 3 years: 36 months or 3 years between charges. */
  maxMonthsBetweenCharges: 36,
  maxTrialDays: 730,
} as const;

export const intervals = ['month', 'year'] as const;
export type Interval = (typeof intervals)[number];

const currency = v.pipe(
  plainText({ message: rules.currency }),
  v.trim(),
  v.toUpperCase(),
  v.check((code) => findCurrency(code) !== undefined, rules.currency),
  // The codes the check finds, in the case answers use (any case is taken).
  v.metadata({ enum: [...currencyCodes] }),
  v.description(`One of ${currencyCodes.join(', ')}.`),
);

const amount = v.pipe(
  v.union([plainText(), v.number()], rules.amount),
  v.description('Decimal in major units, as a string ("10.50") or a JSON number, at the currency precision.'),
);

const modeFlag = modeField();

const image = v.pipe(
  plainText({ message: mediaRules.image }),
  // The form a data URI or a URL must have; that the data is a whole image is in the description.
  v.metadata({
    pattern: `^(?:data:image/(?:png|jpeg);base64,[A-Za-z0-9+/]+={0,2}|${webUrlPattern.slice(1, -1)})$`,
  }),
  v.description(`A data URI of a JPEG or PNG (base64, 10 MB at most; ${imageRule}) or an http(s) image URL.`),
);

/**
 * How many years may pass between charges: newPlan refuses more months in all than
 * maxMonthsBetweenCharges, so a yearly plan's interval_count is bounded lower than a monthly one's.
 */
export const maxYearsBetweenCharges = Math.floor(planLimits.maxMonthsBetweenCharges / 12);

export const CreatePlanSchema = v.pipe(
  v.strictObject({
    name: v.pipe(textField(planLimits.name), v.description('Up to 50 characters; names need not be unique.')),
    description: v.optional(textField(planLimits.description, { allowEmpty: true, lines: 'many' }), ''),
    currency,
    amount,
    interval: v.picklist(intervals),
    interval_count: v.pipe(
      integerField(1, planLimits.maxMonthsBetweenCharges),
      v.description('Intervals between charges; at most 36 months or 3 years in all.'),
    ),
    trial_period_days: v.optional(integerField(0, planLimits.maxTrialDays), 0),
    image: v.optional(image),
    active: v.optional(booleanField(), true),
    test: v.optional(modeFlag),
    is_test: v.optional(modeFlag),
  }),
  // The document shows newPlan's bound of a yearly plan too, and the amount's bounds in its currency.
  v.metadata({
    allOf: [
      ...amountBoundsByCurrency('amount', 'currency', 'USD', { minimum: false }).allOf,
      {
        if: { properties: { interval: { const: 'year' } }, required: ['interval'] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, a plain value never awaited
        then: {
          properties: {
            interval_count: {
              maximum: maxYearsBetweenCharges,
              anyOf: [
                { type: 'integer', maximum: maxYearsBetweenCharges },
                { type: 'string', pattern: integerRangePattern(1, maxYearsBetweenCharges) },
              ],
            },
          },
        },
      },
    ],
  }),
);
export type CreatePlanInput = v.InferOutput<typeof CreatePlanSchema>;

/** Fields a plan never changes after creation: a PUT naming one is 400, checked before the schema. */
export const immutablePlanFields = ['amount', 'interval', 'interval_count', 'currency'] as const;

export const UpdatePlanSchema = v.strictObject({
  name: v.optional(textField(planLimits.name)),
  description: v.optional(textField(planLimits.description, { allowEmpty: true, lines: 'many' })),
  image: v.optional(v.nullable(image)),
  trial_period_days: v.optional(integerField(0, planLimits.maxTrialDays)),
  active: v.optional(booleanField()),
  test: v.optional(modeFlag),
  is_test: v.optional(modeFlag),
});
export type UpdatePlanInput = v.InferOutput<typeof UpdatePlanSchema>;

const timestamp = v.pipe(v.string(), v.description('ISO 8601 UTC.'));
const count = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));

/** The plan record the API answers (GET one, the list's `results`, `plan.deleted` events). */
export const PlanViewSchema = v.strictObject({
  key: v.pipe(v.string(), v.description('The plan id (a UUID), `{id}` in paths.')),
  information: v.strictObject({
    name: v.string(),
    created: timestamp,
    interval: v.picklist(intervals),
    interval_count: count('Intervals between charges.'),
    currency: v.string(),
    amount: v.pipe(v.string(), v.description('Decimal in major units at the currency precision.')),
    trial_period_days: count('0 means no trial.'),
    credit_card_description: v.pipe(v.string(), v.description('Statement text, from the account profile.')),
    description: v.string(),
    email: v.pipe(v.string(), v.description("The account's contact e-mail.")),
    company_name: v.string(),
    page: v.nullable(v.string()),
    active: v.boolean(),
    count: count('Active subscriptions.'),
    image: v.pipe(v.nullable(v.string()), v.description('URL of the stored image (under /media/).')),
    image_dev: v.pipe(v.nullable(v.string()), v.description("The account's logo URL.")),
  }),
  test: v.boolean(),
});
export type PlanView = v.InferOutput<typeof PlanViewSchema>;
