/**
 * Writes fixtures.json, the Stripe stand-in's example objects, from a copy of Stripe's
 * `openapi/fixtures3.json` (github.com/stripe/openapi, MIT licence): only the resources the
 * stand-in answers with, so the repository does not carry the whole 188 KB file.
 *
 *   node infra/local/stripe/extract-fixtures.ts /path/to/fixtures3.json <commit>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The resources the stand-in answers with (deleted_webhook_endpoint: what a DELETE answers). */
export const standInResources = [
  'account',
  'balance_transaction',
  'charge',
  'checkout.session',
  'customer',
  'deleted_webhook_endpoint',
  'dispute',
  'event',
  'payment_intent',
  'payment_method',
  'payout',
  'refund',
  'setup_intent',
  'webhook_endpoint',
] as const;

const [source, commit] = process.argv.slice(2);
if (!source || !commit || !/^[0-9a-f]{7,40}$/.test(commit)) {
  console.error('usage: node infra/local/stripe/extract-fixtures.ts <fixtures3.json> <commit>');
  process.exit(2);
}
const all = JSON.parse(readFileSync(source, 'utf8')) as { resources: Record<string, unknown> };
const resources: Record<string, unknown> = {};
for (const name of standInResources) {
  const example = all.resources[name];
  if (example === undefined) throw new Error(`${source} has no example of ${name}`);
  resources[name] = example;
}
const out = {
  source: {
    repository: 'https://github.com/stripe/openapi',
    path: 'openapi/fixtures3.json',
    commit,
    licence: 'MIT, Copyright (c) 2011- Stripe, Inc.',
  },
  resources,
};
writeFileSync(join(import.meta.dirname, 'fixtures.json'), `${JSON.stringify(out, null, 2)}\n`);
