/**
 * D19's money under races, through the local gateway and the billing step: upgrades racing each
 * other, a cancel, a renewal and a portal card replacement, a pending change applied by racing
 * billing runs, and the acquirer slow or losing its answer. The invariants: a prorated charge is
 * kept only when its change was applied (its `subscription.updated` names it), every other one is
 * refunded in full; a renewal never charges terms the subscription no longer has; a pending change
 * is applied once; the books agree.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { getCharge } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { periodAt } from '../../shared/subscriptions/periods.ts';
import { getSubscription } from '../../shared/subscriptions/repository.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { csrfOf, openPage, postForm, submitCard } from '../support/checkout.ts';
import { eventually } from '../support/eventually.ts';
import { addFault, clearFaults } from '../support/faults.ts';
import { expectBooksAgree } from '../support/ledger.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import { storedEventItems } from '../support/table.ts';

beforeAll(() => useLocalEnvironment());

const since = new Date(Date.now() - 60_000);

interface Merchant {
  account: TestAccount;
  auth: string;
}

async function merchant(label: string): Promise<Merchant> {
  const account = await newAccount(label);
  return { account, auth: apiKey(account.testKey) };
}

async function newPlan(m: Merchant, name: string, amount: string): Promise<string> {
  const created = await api('POST', '/v1/plans/', {
    auth: m.auth,
    body: { name, amount, currency: 'USD', interval: 'month', interval_count: 1 },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data.id as string;
}

/** A subscription paid through its checkout now: its period runs a month from now. */
async function started(m: Merchant, planId: string): Promise<string> {
  const created = await api('POST', '/v1/subscriptions', {
    auth: m.auth,
    body: { plan_id: planId, return_url: 'https://shop.example/welcome' },
  });
  expect(created.status, created.text).toBe(201);
  expect((await submitCard(created.json.data.checkout_url)).status).toBe(303);
  return created.json.data.subscription_id as string;
}

const details = async (m: Merchant) =>
  (await storedEventItems(m.account.developerId, 'test')).map((item) => item.detail);

/**
 * The invariant of prorated charges: each is kept exactly when a `subscription.updated` names it
 * (its change applied), else refunded in full. Answers the kept ones.
 */
async function expectProrationsSettled(m: Merchant, subscriptionId: string) {
  const all = await details(m);
  const named = new Set(
    all
      .filter((d) => d.type === 'subscription.updated' && d.data.object.subscription_id === subscriptionId)
      .map((d) => d.data.charge_id)
      .filter(Boolean),
  );
  const prorations = all.filter(
    (d) =>
      d.type === 'charge.succeeded' &&
      d.data.object.subscription_id === subscriptionId &&
      String(d.data.object.description).endsWith('(prorated)'),
  );
  const scope = { developerId: m.account.developerId, mode: 'test' as const };
  const kept: string[] = [];
  for (const event of prorations) {
    const charge = await getCharge(makeDeps(), scope, event.data.object.id);
    if (named.has(charge?.id)) {
      expect(charge?.refunded, `${charge?.id} applied and kept`).toBe(0);
      kept.push(charge?.id as string);
    } else expect(charge?.refunded, `${charge?.id} not applied: refunded in full`).toBe(charge?.amount);
  }
  expect(kept.length).toBe(named.size);
  return kept;
}

const billingDeps = () => ({ ...makeDeps(), acquirer: simulatedAcquirer() });

describe('upgrades racing', () => {
  it('eight upgrades at once: each kept charge belongs to an applied change, the rest refunded', async () => {
    const m = await merchant('d19-race-upgrades');
    const gold = await newPlan(m, 'Gold', '30.00');
    const id = await started(m, gold);
    const targets = await Promise.all(
      Array.from({ length: 8 }, (_, i) => newPlan(m, `Tier ${i}`, `${100 + 50 * i}.00`)),
    );
    const answers = await Promise.all(
      targets.map((plan) => api('PUT', `/v1/subscriptions/${id}`, { auth: m.auth, body: { plan_id: plan } })),
    );
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    const final = (await api('GET', `/v1/subscriptions/${id}`, { auth: m.auth })).json;
    expect(targets).toContain(final.plan_id);
    const kept = await expectProrationsSettled(m, id);
    // Every 200 moved the plan up from what it was, once: as many kept charges as changes applied.
    expect(kept.length).toBeGreaterThanOrEqual(1);
    expect(kept.length).toBeLessThanOrEqual(answers.filter((a) => a.status === 200).length);
    await expectBooksAgree(m.account.developerId, since);
  });

  it('an upgrade against a cancel, ten rounds: never a kept charge for a change that did not apply', async () => {
    const m = await merchant('d19-race-cancel');
    const gold = await newPlan(m, 'Gold', '30.00');
    const platinum = await newPlan(m, 'Platinum', '300.00');
    for (let round = 0; round < 10; round += 1) {
      const id = await started(m, gold);
      const [upgrade, cancel] = await Promise.all([
        api('PUT', `/v1/subscriptions/${id}`, { auth: m.auth, body: { plan_id: platinum } }),
        api('DELETE', `/v1/subscriptions/${id}`, { auth: m.auth }),
      ]);
      expect([200, 409], upgrade.text).toContain(upgrade.status);
      expect(cancel.status, cancel.text).toBe(200);
      expect((await api('GET', `/v1/subscriptions/${id}`, { auth: m.auth })).json.status).toBe('canceled');
      await expectProrationsSettled(m, id);
    }
    await expectBooksAgree(m.account.developerId, since);
  });

  it('an upgrade against a portal card replacement: both land, neither lost', async () => {
    const m = await merchant('d19-race-portal');
    const gold = await newPlan(m, 'Gold', '30.00');
    const platinum = await newPlan(m, 'Platinum', '300.00');
    const id = await started(m, gold);
    const customer = (await api('GET', `/v1/subscriptions/${id}`, { auth: m.auth })).json.customer_id;
    const portal = await api('POST', `/v1/customers/${customer}/portal/`, { auth: m.auth });
    const page = await openPage(portal.json.url as string);
    const toCard = await postForm(portal.json.url as string, {
      csrf_token: csrfOf(page.html),
      action: 'card',
      subscription_id: id,
    });
    expect(toCard.status, toCard.html).toBe(303);
    const [upgrade, replaced] = await Promise.all([
      api('PUT', `/v1/subscriptions/${id}`, { auth: m.auth, body: { plan_id: platinum } }),
      submitCard(toCard.location as string, { card_number: '5555555555554444' }),
    ]);
    expect(upgrade.status, upgrade.text).toBe(200);
    expect(replaced.status).toBe(303);
    const stored = await getSubscription(
      makeDeps(),
      { developerId: m.account.developerId, mode: 'test' },
      id,
    );
    expect(stored).toMatchObject({ plan_id: platinum, card: { last4: '4444' } });
    await expectProrationsSettled(m, id);
  });
});

describe('an upgrade against the renewal', () => {
  it('never lets a renewal charge the old terms after the change applied, nor the change land after the renewal began (six rounds)', async () => {
    const m = await merchant('d19-race-renewal');
    const gold = await newPlan(m, 'Gold', '21.00');
    const big = await newPlan(m, 'Big', '2000.00');
    for (let round = 0; round < 6; round += 1) {
      // A subscription whose first period ends an hour from now (the helper stores it as checkout
      // would: 10.50 × 2 of plan Gold): anchored a month before. On the 29th to the 31st the month
      // before may be shorter; Date.UTC then rolls into the next month and the period ends a few
      // days later instead, still ahead (clamping to the 28th, as this did, put it a day or more in
      // the past on those days).
      const end = new Date(Date.now() + 3_600_000);
      const anchor = new Date(
        Date.UTC(
          end.getUTCFullYear(),
          end.getUTCMonth() - 1,
          end.getUTCDate(),
          end.getUTCHours(),
          end.getUTCMinutes(),
          end.getUTCSeconds(),
        ),
      );
      const seeded = await subscribe({ account: m.account, planId: gold, anchor: anchor.toISOString() });
      const boundary = periodAt(anchor, 'month', 1, 0).end;
      expect(boundary.getTime()).toBeGreaterThan(Date.now());
      const [upgrade] = await Promise.all([
        api('PUT', `/v1/subscriptions/${seeded.id}`, { auth: m.auth, body: { plan_id: big, quantity: 1 } }),
        runBilling(billingDeps(), new Date(boundary.getTime() + 1000), {
          developerId: m.account.developerId,
        }),
      ]);
      expect([200, 409], upgrade.text).toContain(upgrade.status);
      const stored = await getSubscription(
        makeDeps(),
        { developerId: m.account.developerId, mode: 'test' },
        seeded.id,
      );
      const renewal = (await details(m)).find(
        (d) => d.type === 'subscription.renewed' && d.data.object.subscription_id === seeded.id,
      );
      expect(renewal, `round ${round}: renewed`).toBeDefined();
      const renewalCharge = await getCharge(
        makeDeps(),
        { developerId: m.account.developerId, mode: 'test' },
        renewal?.data.charge_id,
      );
      const kept = await expectProrationsSettled(m, seeded.id);
      if (kept.length === 1) {
        // Applied before the renewal began: the renewal charged the new terms.
        expect(renewalCharge?.amount, `round ${round}`).toBe(200000);
        expect(stored?.plan_id).toBe(big);
      } else {
        // The renewal began first: it charged the old terms; the change waits for the period after
        // it (200), or its charge was refunded (409).
        expect(renewalCharge?.amount, `round ${round}`).toBe(2100);
        expect(stored?.plan_id).toBe(gold);
        if (upgrade.status === 200) expect(stored?.pending_change?.plan_id).toBe(big);
      }
    }
    await expectBooksAgree(m.account.developerId, since);
  });
});

describe('a pending change under racing billing runs', () => {
  it('is applied once, by one renewal, whatever runs at once', async () => {
    const m = await merchant('d19-race-pending');
    const gold = await newPlan(m, 'Gold', '30.00');
    const silver = await newPlan(m, 'Silver', '10.00');
    const id = await started(m, gold);
    const asked = await api('PUT', `/v1/subscriptions/${id}`, {
      auth: m.auth,
      body: { plan_id: silver, quantity: 3 },
    });
    expect(asked.json.pending_change?.plan_id).toBe(silver);
    const at = new Date(Date.parse(asked.json.current_period_end) + 1000);
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => runBilling(billingDeps(), at, { developerId: m.account.developerId })),
    );
    expect(runs.reduce((sum, run) => sum + run.renewed, 0)).toBe(1);
    const applied = (await details(m)).filter(
      (d) =>
        d.type === 'subscription.updated' &&
        d.data.object.subscription_id === id &&
        d.data.previous_attributes.plan_id,
    );
    expect(applied).toHaveLength(1);
    expect((await api('GET', `/v1/subscriptions/${id}`, { auth: m.auth })).json).toMatchObject({
      plan_id: silver,
      quantity: 3,
      pending_change: null,
    });
    await expectBooksAgree(m.account.developerId, since);
  });
});

describe('an upgrade with the acquirer at fault', () => {
  it('slow: the change waits for its answer and applies once', async () => {
    const m = await merchant('d19-fault-slow');
    const gold = await newPlan(m, 'Gold', '30.00');
    const platinum = await newPlan(m, 'Platinum', '300.00');
    const id = await started(m, gold);
    await addFault({
      operation: 'chargeStored',
      effect: 'slow',
      delayMs: 1500,
      merchant: m.account.developerId,
      times: 1,
    });
    try {
      const answer = await api('PUT', `/v1/subscriptions/${id}`, {
        auth: m.auth,
        body: { plan_id: platinum },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.json.plan_id).toBe(platinum);
    } finally {
      await clearFaults(m.account.developerId);
    }
    expect(await expectProrationsSettled(m, id)).toHaveLength(1);
  });

  it('refusing: 402, nothing changed, nothing kept', async () => {
    const m = await merchant('d19-fault-refuse');
    const gold = await newPlan(m, 'Gold', '30.00');
    const platinum = await newPlan(m, 'Platinum', '300.00');
    const id = await started(m, gold);
    await addFault({
      operation: 'chargeStored',
      effect: 'refuse',
      merchant: m.account.developerId,
      times: 1,
    });
    try {
      const answer = await api('PUT', `/v1/subscriptions/${id}`, {
        auth: m.auth,
        body: { plan_id: platinum },
      });
      expect(answer.status, answer.text).toBe(402);
    } finally {
      await clearFaults(m.account.developerId);
    }
    expect((await api('GET', `/v1/subscriptions/${id}`, { auth: m.auth })).json.plan_id).toBe(gold);
    expect(await expectProrationsSettled(m, id)).toEqual([]);
  });

  it('losing its answer: 504, then recovery applies the change and keeps the charge once; the same key answers 200', async () => {
    const m = await merchant('d19-fault-lose');
    const gold = await newPlan(m, 'Gold', '30.00');
    const platinum = await newPlan(m, 'Platinum', '300.00');
    const id = await started(m, gold);
    const headers = { 'Idempotency-Key': `lost-${id}` };
    await addFault({ operation: 'chargeStored', effect: 'lose', merchant: m.account.developerId, times: 1 });
    try {
      const lost = await api('PUT', `/v1/subscriptions/${id}`, {
        auth: m.auth,
        body: { plan_id: platinum },
        headers,
      });
      expect(lost.status, lost.text).toBe(504);
    } finally {
      await clearFaults(m.account.developerId);
    }
    // The stack's recovery (every two seconds locally) learns the approval and applies the change.
    await eventually('the change applied by recovery', async () =>
      (await api('GET', `/v1/subscriptions/${id}`, { auth: m.auth })).json.plan_id === platinum
        ? true
        : undefined,
    );
    const again = await api('PUT', `/v1/subscriptions/${id}`, {
      auth: m.auth,
      body: { plan_id: platinum },
      headers,
    });
    expect(again.status, again.text).toBe(200);
    expect(again.json.plan_id).toBe(platinum);
    expect(await expectProrationsSettled(m, id)).toHaveLength(1);
    await expectBooksAgree(m.account.developerId, since);
  });
});
