/** Where a connector's own events reach cobro (docs/design.md#stripe-events). */

/** The public path Stripe posts an account's events to: one per cobro account, both modes. */
export const stripeEventsPath = (developerId: number) => `/v1/connectors/stripe/${developerId}/events/`;
