/**
 * The charges list, in an account the dashboard part seeded (test/bench/overview.ts): p50/p99 and
 * DynamoDB calls of `listPaymentCharges()`, the read GET /v1/payments/ and the dashboard's charges
 * page both list through, with the default query (the newest 100) and one page further back
 * (`limit` 100, `created_before` the middle of the account's history), then of both pages through
 * the local gateway: GET /dashboard/charges signed in, GET /v1/payments/ with the account's secret
 * key. Before each, what one read makes DynamoDB evaluate (items scanned, read units). The figure
 * must stay flat in the number of charges: one Query of the account's list partition, bounded by
 * the page's limit, whatever lies before or after the page.
 */

import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { Charge } from '../../shared/charges/charge.ts';
import type { Scope } from '../../shared/core/account.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { listPaymentCharges, parsePaymentListQuery } from '../../shared/payments/list-query.ts';
import { type TimingOptions, timed } from './timing.ts';

export interface ChargesListOptions extends TimingOptions {
  deps: Deps;
  apiUrl: string;
  scope: Scope;
  /** How many charges the account holds, for the labels. */
  size: number;
  /** The middle of the account's history (ISO time), and how many of its charges are older. */
  middle: string;
  older: number;
  /** The account's newest charge, as seeded. */
  newestId: string;
  /** The signed-in session's Cookie header, and the account's secret key (its mode is the charges'). */
  cookie: string;
  secretKey: string;
  /** Pads each label to this width, so the part's lines read as one table. */
  labelWidth: number;
}

/** Throws unless `charges` is `expected` long, newest first, and (when given) all created before `before`. */
function checkPage(what: string, charges: readonly Charge[], expected: number, before?: string) {
  if (charges.length !== expected)
    throw new Error(`${what} answered ${charges.length} charges, expected ${expected}`);
  for (let i = 0; i < charges.length; i++) {
    const at = charges[i]?.created_at ?? '';
    if (before !== undefined && at >= before)
      throw new Error(`${what} answered a charge of ${at}, not before ${before}`);
    if (i > 0 && at > (charges[i - 1]?.created_at ?? ''))
      throw new Error(`${what} is not newest first at ${i}`);
  }
}

/**
 * What one run of `read` made DynamoDB evaluate: the items its Queries scanned and the read units
 * they consumed (asked of DynamoDB for this run only, untimed). Both bound a page's cost wherever
 * it runs: a list that read the whole account would scan every charge.
 */
async function evaluated(
  deps: Deps,
  read: () => Promise<unknown>,
): Promise<{ scanned: number; units: number }> {
  const name = 'benchChargesListCapacity';
  let scanned = 0;
  let units = 0;
  deps.db.middlewareStack.add(
    (next) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as {
        ScannedCount?: number;
        ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[];
      };
      scanned += output.ScannedCount ?? 0;
      for (const entry of [output.ConsumedCapacity ?? []].flat())
        units += entry.ReadCapacityUnits ?? entry.CapacityUnits ?? 0;
      return result;
    },
    { step: 'initialize', name },
  );
  try {
    await read();
  } finally {
    deps.db.middlewareStack.remove(name);
  }
  return { scanned, units };
}

export async function benchChargesList(options: ChargesListOptions): Promise<void> {
  const { deps, scope, size, middle } = options;
  const label = (what: string) => `${what.padEnd(options.labelWidth)} at ${String(size).padStart(6)} charges`;
  // The queries exactly as both handlers parse them from the request's query string.
  const pages = [
    { name: 'newest', query: {} as Record<string, string> },
    { name: 'paged', query: { limit: '100', created_before: middle } },
  ];
  for (const { name, query } of pages) {
    const parsed = parsePaymentListQuery(query);
    const expected = await listPaymentCharges(deps, scope, parsed);
    const paged = name === 'paged';
    checkPage(
      `listPaymentCharges(${JSON.stringify(query)})`,
      expected,
      Math.min(parsed.limit, paged ? options.older : size),
      paged ? middle : undefined,
    );
    if (!paged && expected[0]?.id !== options.newestId)
      throw new Error(`the newest charge listed is ${expected[0]?.id}, not ${options.newestId}`);
    const ids = expected.map((charge) => charge.id);
    const search = new URLSearchParams(query).toString();
    const suffix = search ? `?${search}` : '';
    const shown = paged ? '?limit=100&created_before=mid' : '';
    const cost = await evaluated(deps, () => listPaymentCharges(deps, scope, parsed));
    console.log(
      `  ${label(`listPaymentCharges(${shown})`)}: evaluates ${cost.scanned} items, ${cost.units} read units`,
    );
    await timed(options, label(`listPaymentCharges(${shown})`), async () => {
      await listPaymentCharges(deps, scope, parsePaymentListQuery(query));
    });
    await timed(options, label(`GET /dashboard/charges${shown}`), async () => {
      const response = await fetch(`${options.apiUrl}/dashboard/charges${suffix}`, {
        headers: { Cookie: options.cookie },
        redirect: 'manual',
      });
      const html = await response.text();
      // The page shows the same charges as the read: its first and last row at least.
      if (response.status !== 200 || !html.includes(ids[0] ?? '') || !html.includes(ids.at(-1) ?? ''))
        throw new Error(
          `GET /dashboard/charges${suffix} answered ${response.status} without the list's charges`,
        );
    });
    await timed(options, label(`GET /v1/payments/${shown}`), async () => {
      const response = await fetch(`${options.apiUrl}/v1/payments/${suffix}`, {
        headers: { Authorization: `Api-Key ${options.secretKey}` },
      });
      const body = (await response.json()) as { id: string }[];
      if (response.status !== 200 || body.length !== ids.length || body[0]?.id !== ids[0])
        throw new Error(`GET /v1/payments/${suffix} answered ${response.status} with ${body.length} charges`);
    });
  }
}
