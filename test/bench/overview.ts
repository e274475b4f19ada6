/**
 * The dashboard: its overview and its charges list, for accounts holding 10, 1,000 and 100,000
 * charges (--overview-sizes), with the DynamoDB calls each request makes (--overview-requests).
 * Each account's charges, spread over the last 90 days, and their day counters (as the counting
 * rule leaves them) are stored once with batch writes, progress shown; then, in that account:
 * - p50/p99 of `overview()` (the 30 days' counters in one Query and the gauge in one Get), and of
 *   the dashboard's first page that shows it (GET /dashboard/ through the local gateway, signed in),
 * - the charges list (test/bench/charges-list.ts): the payments list's read that the API and the
 *   dashboard share, and both its pages through the gateway (GET /dashboard/charges and
 *   GET /v1/payments/), newest first and one page back.
 * Every figure must stay flat: the overview never reads a charge, and a list page reads one page of
 * the account's list index, never the whole of it.
 */

import { createAccount } from '../../shared/accounts/repository.ts';
import { newCharge } from '../../shared/charges/charge.ts';
import { chargeEntity } from '../../shared/charges/repository.ts';
import { prefixedId } from '../../shared/core/ids.ts';
import { putAll } from '../../shared/db/batch.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { dayOf, daysEnding } from '../../shared/stats/counters.ts';
import { statsKeys } from '../../shared/stats/keys.ts';
import { overview, statsEntities } from '../../shared/stats/repository.ts';
import { hashPassword } from '../../shared/team/password.ts';
import { addUser } from '../../shared/team/users.ts';
import { benchChargesList } from './charges-list.ts';
import { timed } from './timing.ts';

interface Options {
  deps: Deps;
  apiUrl: string;
  sizes: number[];
  requests: number;
  calls: () => number;
  resetCalls: () => void;
  percentile: (sorted: number[], p: number) => number;
}

const spreadDays = 90;
/** The longest label of the part's lines (test/bench/charges-list.ts), so they read as one table. */
const labelWidth = 'GET /dashboard/charges?limit=100&created_before=mid'.length;

/** `count` charges of an account, oldest first over the last 90 days, with a progress line every 10%. */
function* charges(developerId: number, count: number, now: Date, progress: (done: number) => void) {
  const step = Math.max(1, Math.floor(count / 10));
  for (let i = 0; i < count; i++) {
    const at = new Date(now.getTime() - Math.floor(((count - i) / count) * spreadDays * 86_400_000));
    const charge = newCharge({
      id: prefixedId('ch'),
      developerId,
      mode: 'test',
      source: 'checkout',
      paymentId: prefixedId('pay'),
      attemptId: prefixedId('att'),
      customerId: null,
      amount: 1000 + (i % 7) * 100,
      currency: i % 5 === 0 ? 'EUR' : 'USD',
      description: 'Bench order',
      statementDescription: 'BENCH',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099, country: 'US' },
      acquirerReference: 'bench',
      now: at,
    });
    if ((i + 1) % step === 0) progress(i + 1);
    yield charge;
  }
}

/** The cookies a response sets, added to `jar`. */
function keepCookies(jar: Map<string, string>, response: Response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** Signs in to the dashboard as a user of the account, as a browser does: the Cookie header of its session. */
async function signIn(apiUrl: string, deps: Deps, developerId: number): Promise<string> {
  const email = `bench-${Date.now()}-${Math.random()}@team.example.com`;
  const password = `bench password ${Math.random()}`;
  const added = await addUser(deps, {
    developerId,
    email,
    role: 'viewer',
    passwordHash: await hashPassword(password),
    addedBy: 'bench',
  });
  if (!added.added) throw new Error(`${email}: ${added.refused}`);
  const jar = new Map<string, string>();
  const header = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const form = await fetch(`${apiUrl}/dashboard/sign-in`);
  keepCookies(jar, form);
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const signed = await fetch(`${apiUrl}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: header() },
    body: new URLSearchParams({ email, password, csrf_token: csrf }).toString(),
  });
  if (signed.status !== 303) throw new Error(`POST /dashboard/sign-in answered ${signed.status}`);
  keepCookies(jar, signed);
  return header();
}

export async function benchOverview(options: Options): Promise<void> {
  const { deps } = options;
  const now = new Date();
  console.log(
    `dashboard: overview and charges list (${options.requests} calls each; charges spread over the last ${spreadDays} days, their day counters beside them; mid = the middle of that history)`,
  );
  for (const size of options.sizes) {
    const owner = await createAccount(deps, {
      name: 'Bench overview',
      email: `bench-overview-${size}-${Date.now()}@example.com`,
    });
    const developerId = owner.account.developer_id;
    const days = new Map<string, Record<string, number>>();
    // For the charges list: the middle of the account's history, the charges older than it, the newest.
    const middle = new Date(now.getTime() - (spreadDays / 2) * 86_400_000).toISOString();
    let older = 0;
    let newestId = '';
    const started = performance.now();
    const stored = await putAll(
      deps,
      (function* () {
        for (const charge of charges(developerId, size, now, (done) =>
          process.stdout.write(
            `\r  seeding ${size} charges: ${done} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
          ),
        )) {
          const figures = days.get(dayOf(charge.created_at)) ?? {};
          figures.charges = (figures.charges ?? 0) + 1;
          const volume = `volume_${charge.currency}`;
          figures[volume] = (figures[volume] ?? 0) + charge.amount;
          days.set(dayOf(charge.created_at), figures);
          if (charge.created_at < middle) older += 1;
          newestId = charge.id;
          yield chargeEntity.create(deps.table, charge).Put.Item as Record<string, unknown>;
        }
      })(),
    );
    await putAll(
      deps,
      [...days].map(([day, figures]) => ({
        ...statsKeys.day(developerId, 'test', day),
        entity: statsEntities.day,
        developer_id: developerId,
        mode: 'test',
        day,
        ...figures,
      })),
    );
    process.stdout.write('\n');
    const scope = { developerId, mode: 'test' as const };
    // What it answers is what was stored for the window's days.
    const window = new Set(daysEnding(now));
    const expected = [...days]
      .filter(([day]) => window.has(day))
      .reduce((sum, [, f]) => sum + (f.charges ?? 0), 0);
    const seen = await overview(deps, scope, now);
    if (seen.totals.charges !== expected)
      throw new Error(`overview() counted ${seen.totals.charges} charges, the window holds ${expected}`);
    console.log(
      `  ${stored} charges stored in ${((performance.now() - started) / 1000).toFixed(1)} s; ${expected} in the 30 days, ${older} before mid`,
    );
    const label = (what: string) => `${what.padEnd(labelWidth)} at ${String(size).padStart(6)} charges`;
    await timed(options, label('overview()'), async () => {
      await overview(deps, scope, now);
    });
    const cookie = await signIn(options.apiUrl, deps, developerId);
    await timed(options, label('GET /dashboard/'), async () => {
      const response = await fetch(`${options.apiUrl}/dashboard/`, {
        headers: { Cookie: cookie },
        redirect: 'manual',
      });
      const html = await response.text();
      if (response.status !== 200 || !html.includes('role="img"'))
        throw new Error(`GET /dashboard/ answered ${response.status} without the overview`);
    });
    await benchChargesList({
      ...options,
      scope,
      size,
      middle,
      older,
      newestId,
      cookie,
      secretKey: owner.testKey,
      labelWidth,
    });
  }
  console.log('');
}
