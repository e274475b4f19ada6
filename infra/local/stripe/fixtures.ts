/**
 * The example objects every answer of the Stripe stand-in starts from.
 *
 * Data: fixtures.json holds Stripe's published example of each resource the stand-in answers with,
 * taken from the `stripe/openapi` repository (https://github.com/stripe/openapi), file
 * `openapi/fixtures3.json`, commit f6c2a48f; MIT licence, Copyright (c) 2011- Stripe, Inc.
 * extract-fixtures.ts writes it from a copy of that file.
 *
 * An object the stand-in makes is a deep copy of its resource's example with the fields the stand-in
 * knows overwritten, so the fields it does not know keep the shapes Stripe publishes.
 */
import fixtures from './fixtures.json' with { type: 'json' };

export type FixtureResource = keyof typeof fixtures.resources;

/** Where the examples come from (repository, path, commit, licence). */
export const fixtureSource = fixtures.source;

/** A fresh deep copy of Stripe's example of `resource`, typed as the caller's Stripe type. */
export function example<T>(resource: FixtureResource): T {
  return structuredClone(fixtures.resources[resource]) as T;
}
