/** Request and view schemas of the subscriptions API. */
import * as v from 'valibot';
import { metadataField } from '../core/metadata.ts';
import { pageParameters, pageRequestOf } from '../core/pagination.ts';
import { queryParameter } from '../core/query.ts';
import {
  booleanField,
  integerField,
  modeField,
  nonBlank,
  plainText,
  webUrlFormat,
} from '../core/validation.ts';
import { subscriptionStatuses } from './subscription.ts';

export const subscriptionLimits = { quantity: 10_000, trialDays: 730, returnUrl: 2048 } as const;

export const CreateSubscriptionSchema = v.strictObject({
  plan_id: v.pipe(plainText(), nonBlank(), v.trim(), v.minLength(1), v.maxLength(100)),
  customer_id: v.optional(v.pipe(plainText(), v.trim(), v.maxLength(100))),
  quantity: v.optional(integerField(1, subscriptionLimits.quantity), 1),
  trial_days: v.optional(integerField(0, subscriptionLimits.trialDays)),
  return_url: v.pipe(
    plainText(),
    v.trim(),
    v.minLength(1),
    v.maxLength(subscriptionLimits.returnUrl),
    webUrlFormat(),
    v.description('Absolute http(s) URL (https in live mode); the customer returns there after checkout.'),
  ),
  metadata: v.optional(metadataField(), null),
  test: v.optional(modeField()),
  is_test: v.optional(modeField()),
});
export type CreateSubscriptionInput = v.InferOutput<typeof CreateSubscriptionSchema>;

/** `PUT /v1/subscriptions/{id}`: any of its fields; one left out is left as it is. */
export const UpdateSubscriptionSchema = v.strictObject({
  plan_id: v.optional(
    v.pipe(
      plainText(),
      nonBlank(),
      v.trim(),
      v.minLength(1),
      v.maxLength(100),
      v.description(
        'An active plan of the same account, mode and currency. A higher amount per period on the same interval applies at once (the difference for the time left charged now); anything else applies at the period’s end.',
      ),
    ),
  ),
  quantity: v.optional(integerField(1, subscriptionLimits.quantity)),
  cancel_at_period_end: v.optional(
    v.pipe(
      booleanField(),
      v.description(
        'true: it ends at the current period’s (or trial’s) end instead of renewing; false undoes it.',
      ),
    ),
  ),
  metadata: v.optional(metadataField()),
  test: v.optional(modeField()),
  is_test: v.optional(modeField()),
});
export type UpdateSubscriptionInput = v.InferOutput<typeof UpdateSubscriptionSchema>;

export const SubscriptionListQuerySchema = v.pipe(
  v.object({
    ...pageParameters(),
    status: queryParameter(
      'string',
      `Only subscriptions in this status: ${subscriptionStatuses.join(', ')}.`,
      v.picklist(subscriptionStatuses, 'status'),
    ),
    plan_id: queryParameter(
      'string',
      "Only this plan's subscriptions (its key).",
      v.pipe(v.string(), v.maxLength(100)),
    ),
  }),
  v.transform(({ page, page_size, status, plan_id }) => ({
    page: pageRequestOf({ page, page_size }),
    status,
    planId: plan_id,
  })),
);

export const CreatedSubscriptionSchema = v.strictObject({
  subscription_id: v.string(),
  checkout_url: v.string(),
  test: v.boolean(),
});

/** The list form the API answers: the subscription's ids, status and next billing date. */
export const SubscriptionListItemSchema = v.strictObject({
  subscription_id: v.string(),
  plan_id: v.string(),
  customer_id: v.nullable(v.string()),
  status: v.picklist(subscriptionStatuses),
  next_billing_date: v.nullable(v.string()),
  test: v.boolean(),
});

/** The by-plan form: the list form without the plan. */
export const PlanSubscriptionSchema = v.strictObject({
  subscription_id: v.string(),
  customer_id: v.nullable(v.string()),
  status: v.picklist(subscriptionStatuses),
  next_billing_date: v.nullable(v.string()),
  test: v.boolean(),
});

export const CanceledSubscriptionSchema = v.looseObject({
  code: v.number(),
  title: v.string(),
  content: v.string(),
  subscription_id: v.string(),
});
