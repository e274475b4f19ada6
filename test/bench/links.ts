/**
 * Payment links: p50/p99 of creating a link, reading it, and paying its page through the local
 * gateway (with the DynamoDB calls each request makes), then one billing run over many recurring
 * links due at one time (stored straight into the table as a payment leaves them: the record, its
 * due entry and its page), moving each `paid_period` link to `pending_period` and, five days
 * later, to `defaulter`. Prints links per second and DynamoDB calls per link.
 */
import { randomUUID } from 'node:crypto';
import { sessionEntity } from '../../shared/checkout/repository.ts';
import { newLinkSession } from '../../shared/checkout/session.ts';
import { putAll } from '../../shared/db/batch.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { runLinkBilling } from '../../shared/payment-links/billing.ts';
import { linkKeys } from '../../shared/payment-links/keys.ts';
import type { PaymentLink } from '../../shared/payment-links/link.ts';
import { linkEntity } from '../../shared/payment-links/repository.ts';

interface Options {
  deps: Deps;
  developerId: number;
  apiUrl: string;
  testKey: string;
  requests: number;
  count: number;
  calls: () => number;
  resetCalls: () => void;
  percentile: (sorted: number[], p: number) => number;
}

async function timed(options: Options, label: string, request: (i: number) => Promise<void>) {
  const times: number[] = [];
  options.resetCalls();
  for (let i = 0; i < options.requests; i++) {
    const start = performance.now();
    await request(i);
    times.push(performance.now() - start);
  }
  const calls = options.calls() / options.requests;
  times.sort((a, b) => a - b);
  const p = (n: number) => options.percentile(times, n).toFixed(1);
  console.log(`  ${label}: p50 ${p(50)} ms, p99 ${p(99)} ms, ${calls.toFixed(1)} DynamoDB calls per request`);
}

async function latency(options: Options): Promise<void> {
  const headers = { Authorization: `Api-Key ${options.testKey}`, 'Content-Type': 'application/json' };
  const made: { id: string; link: string }[] = [];
  console.log(`payment links through the local gateway (${options.requests} requests each)`);
  await timed(options, 'POST /v1/payment-links/', async () => {
    const response = await fetch(`${options.apiUrl}/v1/payment-links/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ description: 'Bench', amount: '12.00' }),
    });
    if (response.status !== 201) throw new Error(`create answered ${response.status}`);
    made.push(((await response.json()) as { data: { id: string; link: string } }).data);
  });
  await timed(options, 'GET /v1/payment-links/{id}/', async (i) => {
    const response = await fetch(`${options.apiUrl}/v1/payment-links/${made[i]?.id}/`, { headers });
    if (response.status !== 200) throw new Error(`get answered ${response.status}`);
    await response.arrayBuffer();
  });
  const csrf: string[] = [];
  for (const one of made) {
    const html = await (await fetch(one.link)).text();
    csrf.push(/name="csrf_token" value="([^"]*)"/.exec(html)?.[1] ?? '');
  }
  await timed(options, 'POST /checkout/{token} (pay a link, approved card)', async (i) => {
    const response = await fetch(made[i]?.link as string, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        csrf_token: csrf[i] as string,
        email: `bench-${i}@example.com`,
        cardholder_name: 'Bench',
        card_number: '4242424242424242',
        exp_month: '12',
        exp_year: '2099',
        cvc: '123',
      }).toString(),
    });
    if (response.status !== 200) throw new Error(`pay answered ${response.status}`);
    await response.arrayBuffer();
  });
}

async function billing(options: Options): Promise<void> {
  const { deps, developerId, count } = options;
  const due = '2030-02-15T00:00:00.000Z';
  const merchant = { name: 'Bench', statementDescriptor: 'BENCH' };
  function* items() {
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      const session = newLinkSession(
        { id, developer_id: developerId, mode: 'test', amount: 1000, currency: 'USD', description: 'Bench' },
        merchant,
        null,
        new Date('2030-01-15T00:00:00.000Z'),
      );
      const link: PaymentLink = {
        id,
        developer_id: developerId,
        mode: 'test',
        description: 'Bench',
        amount: 1000,
        currency: 'USD',
        active: true,
        recurring: true,
        status: 'paid_period',
        date_anchor: '2030-01-15T00:00:00.000Z',
        months_from_anchor: 1,
        period_due_at: null,
        due_at: due,
        customer_id: null,
        customer_name: null,
        customer_email: null,
        product_id: null,
        token: session.token,
        last_charge_id: null,
        paid_at: '2030-01-15T00:00:00.000Z',
        version: 1,
        created_at: '2030-01-15T00:00:00.000Z',
        updated_at: '2030-01-15T00:00:00.000Z',
      };
      yield linkEntity.item(link);
      yield { ...sessionEntity.item({ ...session, status: 'paid' }) };
      yield {
        ...linkKeys.due(id, due),
        entity: 'link_due',
        developer_id: developerId,
        mode: 'test',
        link_id: id,
        due_at: due,
      };
    }
  }
  const seeding = performance.now();
  await putAll(deps, items());
  const seeded = (performance.now() - seeding) / 1000;
  for (const [label, now] of [
    ['paid_period → pending_period', due],
    ['pending_period → defaulter', '2030-02-20T00:00:00.000Z'],
  ] as const) {
    options.resetCalls();
    const start = performance.now();
    const summary = await runLinkBilling(deps, new Date(now), { developerId });
    const seconds = (performance.now() - start) / 1000;
    const moved = summary.pending_period + summary.defaulter;
    console.log(
      `  billing run over ${count} due links, ${label}: ${seconds.toFixed(2)} s = ${(moved / seconds).toFixed(0)} links/s; ${(options.calls() / count).toFixed(2)} DynamoDB calls per link; ${JSON.stringify(summary)}`,
    );
  }
  console.log(`  (seeded ${count} links in ${seeded.toFixed(1)} s)`);
}

export async function benchLinks(options: Options): Promise<void> {
  await latency(options);
  await billing(options);
}
