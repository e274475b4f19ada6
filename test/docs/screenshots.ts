/**
 * `npm run screenshots`: the dashboard's pictures in docs/screenshots/, made again from nothing.
 * A local stack (started and stopped by the suites' global setup), one account seeded through the
 * public API as a small coffee shop would fill it (payments paid over the hosted checkout with test
 * cards, whose payers become its customers; a few declined, one refunded; plans, and subscriptions
 * to them paid at their checkout, one canceled), then the overview,
 * the charges list and the subscriptions list in Chromium, full page, at 1280 and 390 px wide:
 * `docs/screenshots/{overview,charges,subscriptions}-{1280,390}.png`.
 *
 * The records, names and amounts are the same on every run; ids, dates and times are today's.
 * No page that shows a key or a signing secret is photographed, and each page is checked for the
 * account's keys before it is.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { hashPassword } from '../../shared/team/password.ts';
import { addUser } from '../../shared/team/users.ts';
import { launchBrowser } from '../support/browser.ts';
import {
  createPayment,
  listCharges,
  payThroughCheckout,
  submitCard,
  testCards,
} from '../support/checkout.ts';
import { dashboardUrl, signInAsOnPage } from '../support/dashboard.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import { api, apiKey, localInfo, useLocalEnvironment } from '../support/stack.ts';
import type { TestUser } from '../support/team.ts';

const outDir = resolve(import.meta.dirname, '../../docs/screenshots');
const shop = 'https://bluemug.example';

/** One-off orders paid at the checkout: amount, what was bought, the payer. */
const orders: readonly [amount: string, description: string, payer: string, currency?: string][] = [
  ['12.00', 'Two blue mugs', 'Ada Lovelace'],
  ['34.50', 'Espresso beans, 1 kg', 'Grace Hopper'],
  ['8.90', 'Oat flat white and a croissant', 'Alan Turing'],
  ['56.00', 'Pour-over kit', 'Katherine Johnson'],
  ['19.90', 'Gift card', 'Edsger Dijkstra'],
  ['4.50', 'Cold brew', 'Barbara Liskov'],
  ['72.00', 'Burr grinder', 'Donald Knuth'],
  ['23.40', 'Decaf, 500 g', 'Margaret Hamilton'],
  ['15.00', 'Tasting class', 'Radia Perlman', 'EUR'],
  ['9.80', 'Two cappuccinos', 'Ken Thompson'],
  ['41.25', 'Team breakfast', 'Frances Allen'],
  ['27.00', 'Travel mug', 'John Backus', 'EUR'],
  ['6.20', 'Chai latte', 'Hedy Lamarr'],
  ['88.00', 'Office coffee, monthly box', 'Tim Berners-Lee'],
  ['13.60', 'Filter papers and beans', 'Annie Easley'],
];

/** Payments whose only try was declined: they stay pending, each a decline in the overview. */
const declines: readonly [amount: string, description: string, card: string][] = [
  ['45.00', 'Burr grinder', testCards.genericDecline],
  ['18.00', 'Espresso beans, 500 g', testCards.insufficientFunds],
  ['64.00', 'Pour-over kit and scale', testCards.expiredCard],
];

const plans = [
  { name: 'Coffee club', amount: '19.90', currency: 'USD', interval: 'month', interval_count: 1 },
  { name: 'Office box', amount: '89.00', currency: 'USD', interval: 'month', interval_count: 1 },
  { name: 'Beans for a year', amount: '180.00', currency: 'USD', interval: 'year', interval_count: 1 },
] as const;

const subscribers = [
  { first_name: 'Ada', last_name: 'Lovelace', plan: 0 },
  { first_name: 'Grace', last_name: 'Hopper', plan: 1 },
  { first_name: 'Alan', last_name: 'Turing', plan: 2, canceled: true },
] as const;

const emailOf = (name: string) => `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`;

/** A 201 answer's `data`, or the step fails with the answer. */
async function created(auth: string, path: string, body: Record<string, unknown>) {
  const answer = await api('POST', path, { auth, body });
  expect(answer.status, answer.text).toBe(201);
  return answer.json.data;
}

let browser: Browser;
let keys: string[];
let auth: string;
/** Who signs in: the shop's owner, an admin. */
let owner: TestUser;

beforeAll(async () => {
  useLocalEnvironment();
  const account = await createAccount(makeDeps(), {
    name: 'Blue Mug Coffee',
    email: 'owner@bluemug.example',
  });
  keys = [account.testKey, account.liveKey];
  auth = apiKey(account.testKey);
  // The shop's team: its owner (an admin), a developer and a support person who set their
  // passwords, and a viewer still invited.
  const deps = makeDeps();
  const developerId = account.account.developer_id;
  const team = [
    ['maria@bluemug.example', 'admin'],
    ['dev@bluemug.example', 'developer'],
    ['sam@bluemug.example', 'support'],
  ] as const;
  for (const [email, role] of team) {
    const password = `${email} blue mug password`;
    const added = await addUser(deps, {
      developerId,
      email,
      role,
      passwordHash: await hashPassword(password),
      addedBy: 'cli',
    });
    if (!added.added) throw new Error(`${email}: ${added.refused}`);
    if (role === 'admin') owner = { user: added.user, email, password };
  }
  await addUser(deps, {
    developerId,
    email: 'vic@bluemug.example',
    role: 'viewer',
    addedBy: owner.user.user_id,
  });
  browser = await launchBrowser();

  // Made one after the other, so the lists' newest-first order is the same on every run.
  for (const [amount, description, payer, currency = 'USD'] of orders)
    await payThroughCheckout(auth, {
      payment: { amount, description, currency, items: [description], return_url: `${shop}/thanks` },
      card: { email: emailOf(payer), cardholder_name: payer },
    });
  for (const [amount, description, card] of declines) {
    const payment = await createPayment(auth, {
      amount,
      description,
      items: [description],
      return_url: `${shop}/thanks`,
    });
    const declined = await submitCard(payment.url, { card_number: card, email: 'someone@example.com' });
    expect(declined.status, declined.html).toBe(402);
  }
  // The first order's mugs: one came broken.
  const mugs = (await listCharges(auth, 'limit=100')).find(
    (charge) => charge.description === 'Two blue mugs',
  );
  expect(mugs).toBeDefined();
  await created(auth, '/v1/refunds/', {
    charge_id: mugs?.id,
    amount: '6.00',
    reason: 'requested_by_customer',
  });

  const planIds: string[] = [];
  for (const plan of plans) planIds.push((await created(auth, '/v1/plans/', plan)).id as string);
  // Three of the shop's payers subscribe; the checkout finds each one by e-mail.
  for (const subscriber of subscribers) {
    const email = emailOf(`${subscriber.first_name} ${subscriber.last_name}`);
    const subscription = await created(auth, '/v1/subscriptions', {
      plan_id: planIds[subscriber.plan],
      return_url: `${shop}/welcome`,
    });
    const paid = await submitCard(subscription.checkout_url, {
      email,
      cardholder_name: `${subscriber.first_name} ${subscriber.last_name}`,
    });
    expect(paid.status, paid.html).toBe(303);
    if ('canceled' in subscriber) {
      const canceled = await api('DELETE', `/v1/subscriptions/${subscription.subscription_id}`, { auth });
      expect(canceled.status, canceled.text).toBe(200);
    }
  }
  // The overview's counters are kept from the events: wait until the pipeline carried them all.
  await pipelineDrained(localInfo, account.account.developer_id);
  mkdirSync(outDir, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

const pages = [
  { name: 'overview', path: '' },
  { name: 'charges', path: 'charges' },
  { name: 'subscriptions', path: 'subscriptions' },
  { name: 'users', path: 'users' },
  { name: 'audit', path: 'audit' },
  { name: 'profile', path: 'profile' },
] as const;

describe('the dashboard screenshots', () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(`writes the overview, charges, subscriptions, users, audit log and profile at ${viewport.width} px`, async () => {
      const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'en-US' });
      context.setDefaultTimeout(15_000);
      try {
        const page = await context.newPage();
        await page.goto(dashboardUrl());
        await signInAsOnPage(page, owner);
        for (const { name, path } of pages) {
          await page.goto(dashboardUrl(path));
          expect(page.url()).toBe(dashboardUrl(path));
          const html = await page.content();
          for (const key of keys) expect(html.includes(key), `${name} shows a key`).toBe(false);
          expect(html, `${name} shows a signing secret`).not.toMatch(/whsec_/);
          // The page fits the window's width (a wide table scrolls inside its own card).
          const scrollWidth = await page.evaluate('document.documentElement.scrollWidth');
          expect(scrollWidth, `${name} is wider than ${viewport.width} px`).toBeLessThanOrEqual(
            viewport.width,
          );
          await page.screenshot({ path: `${outDir}/${name}-${viewport.width}.png`, fullPage: true });
        }
      } finally {
        await context.close();
      }
    });
  }
});
