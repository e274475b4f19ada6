/**
 * The customer portal: p50/p99 of creating a portal link (POST /v1/customers/{id}/portal/) and of
 * the portal page it opens (GET /portal/{token}) through the local gateway, with the DynamoDB calls
 * each request makes. The customer is made through the API; their subscriptions and charges, and
 * those of another customer of the same account (`others` of each), are stored straight into the
 * table as checkout and billing leave them. The page is then timed again once a third customer of
 * the account has `crowd` charges more (put in bulk): it reads the customer's own records from the
 * customer index, so neither crowd should move it.
 */

import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { type Charge, newCharge } from '../../shared/charges/charge.ts';
import { chargeEntity } from '../../shared/charges/repository.ts';
import { prefixedId } from '../../shared/core/ids.ts';
import { putAll } from '../../shared/db/batch.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { periodAt } from '../../shared/subscriptions/periods.ts';
import { storeSubscription } from '../../shared/subscriptions/repository.ts';
import type { Subscription } from '../../shared/subscriptions/subscription.ts';
import { timed } from './timing.ts';

interface Options {
  deps: Deps;
  developerId: number;
  apiUrl: string;
  testKey: string;
  requests: number;
  /** Subscriptions and charges of another customer in the same account. */
  others: number;
  /** Charges of a third customer of the account, added before the page is timed again. */
  crowd: number;
  calls: () => number;
  resetCalls: () => void;
  percentile: (sorted: number[], p: number) => number;
}

/** The portal customer's own: a few subscriptions and charges. */
const ownSubscriptions = 3;
const ownCharges = 5;

/** An active monthly subscription of `customerId`, its first period paid (the page charges nothing). */
function subscription(developerId: number, customerId: string, now: Date): Subscription {
  const anchor = new Date(now.getTime() - 86_400_000);
  const at = anchor.toISOString();
  return {
    id: prefixedId('sub'),
    developer_id: developerId,
    mode: 'test',
    plan_id: randomUUID(),
    plan: { name: 'Bench Gold', amount: 1050, currency: 'USD', interval: 'month', interval_count: 1 },
    quantity: 1,
    customer_id: customerId,
    status: 'active',
    active: true,
    statement_descriptor: 'BENCH GOLD',
    card_token: 'bench-card-token',
    anchor: at,
    trial_end: null,
    paid_through: 0,
    failed_attempts: 0,
    failed_at: null,
    next_action_at: periodAt(anchor, 'month', 1, 0).end.toISOString(),
    version: 1,
    created_at: at,
    updated_at: at,
    canceled_at: null,
  };
}

function benchCharge(developerId: number, customerId: string, now: Date): Charge {
  return newCharge({
    id: prefixedId('ch'),
    developerId,
    mode: 'test',
    source: 'subscription',
    paymentId: null,
    attemptId: prefixedId('att'),
    customerId,
    amount: 1050,
    currency: 'USD',
    description: 'Bench Gold',
    statementDescription: 'BENCH GOLD',
    card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2099, country: 'US' },
    acquirerReference: 'bench',
    now,
  });
}

async function storeCharge(deps: Deps, developerId: number, customerId: string, now: Date): Promise<string> {
  const charge = benchCharge(developerId, customerId, now);
  await deps.db.send(new PutCommand(chargeEntity.create(deps.table, charge).Put));
  return charge.id;
}

export async function benchPortal(options: Options): Promise<void> {
  const { deps, developerId } = options;
  const headers = { Authorization: `Api-Key ${options.testKey}`, 'Content-Type': 'application/json' };
  const newCustomer = async (name: string) => {
    const response = await fetch(`${options.apiUrl}/v1/customers/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        first_name: name,
        last_name: 'Bench',
        email: `bench-portal-${name.toLowerCase()}-${Date.now()}@example.com`,
      }),
    });
    if (response.status !== 201) throw new Error(`POST /v1/customers/ answered ${response.status}`);
    return ((await response.json()) as { data: { id: string } }).data.id;
  };
  const [customerId, otherId, crowdId] = [
    await newCustomer('Grace'),
    await newCustomer('Other'),
    await newCustomer('Crowd'),
  ];
  // The other customer's first, older: the customer's own charges are among the newest the page reads.
  const start = Date.now() - 86_400_000;
  const theirs: string[] = [];
  for (let i = 0; i < options.others; i++) {
    const stored = subscription(developerId, otherId, new Date(start + i));
    await storeSubscription(deps, stored);
    theirs.push(stored.id, await storeCharge(deps, developerId, otherId, new Date(start + i)));
  }
  const own: string[] = [];
  for (let i = 0; i < ownSubscriptions; i++) {
    const stored = subscription(developerId, customerId, new Date());
    await storeSubscription(deps, stored);
    own.push(stored.id);
  }
  for (let i = 0; i < ownCharges; i++) own.push(await storeCharge(deps, developerId, customerId, new Date()));

  const create = async () => {
    const response = await fetch(`${options.apiUrl}/v1/customers/${customerId}/portal/`, {
      method: 'POST',
      headers,
    });
    if (response.status !== 201) throw new Error(`POST .../portal/ answered ${response.status}`);
    return ((await response.json()) as { url: string }).url;
  };
  const url = await create();
  // The page shows the customer's own subscriptions and charges, and nothing of the other's.
  const html = await (await fetch(url)).text();
  const missing = own.filter((id) => !html.includes(id));
  const shown = theirs.filter((id) => html.includes(id));
  if (missing.length > 0 || shown.length > 0)
    throw new Error(`the portal page lacks ${missing.join(', ')} or shows ${shown.join(', ')}`);

  console.log(
    `customer portal through the local gateway (${options.requests} requests each; the customer has ${ownSubscriptions} subscriptions and ${ownCharges} charges, another customer of the account ${options.others} of each)`,
  );
  await timed(options, 'POST /v1/customers/{id}/portal/', async () => void (await create()));
  const page = async () => {
    const response = await fetch(url);
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/html'))
      throw new Error(`GET /portal/{token} answered ${response.status}`);
    await response.arrayBuffer();
  };
  await timed(options, 'GET /portal/{token}', page);

  // A third customer's charges, older than the customer's own (so a page that looked through the
  // account's newest charges would still find them), put in bulk.
  const crowdStart = start - options.crowd;
  await putAll(
    deps,
    Array.from({ length: options.crowd }, (_, i) =>
      chargeEntity.item(benchCharge(developerId, crowdId, new Date(crowdStart + i))),
    ),
  );
  await timed(options, `GET /portal/{token}, another customer with ${options.crowd} charges more`, page);
  console.log('');
}
