/** `cobro payouts run [--now]`: live charges older than two days are paid out once; test charges never. */
import { describe, expect, it } from 'vitest';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { api, basic, newAccount } from '../support/stack.ts';

const fields = (year: number) =>
  new URLSearchParams({
    amount: '10.00',
    currency: 'usd',
    credit_card_number: '4242424242424242',
    credit_card_security_code_number: '123',
    exp_month: '12',
    exp_year: String(year),
  }).toString();

async function charge(key: string): Promise<string> {
  const answer = await api('POST', '/v1/charges/simple/create/', {
    auth: basic(key),
    rawBody: fields(new Date().getUTCFullYear() + 3),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(answer.status).toBe(201);
  return answer.json.id as string;
}

const payouts = async (now: Date) =>
  JSON.parse((await cli('payouts', 'run', '--now', now.toISOString())).stdout);

describe('payouts run', () => {
  it('pays out a live charge once it is two days old, once, and never a test charge', async () => {
    const account = await newAccount('payouts');
    const live = await charge(account.liveKey);
    const test = await charge(account.testKey);

    const early = await payouts(new Date(Date.now() + 86_400_000));
    expect(early.charge_ids).not.toContain(live);

    const due = await payouts(new Date(Date.now() + 3 * 86_400_000));
    expect(Object.keys(due).sort()).toEqual([
      'charge_ids',
      'now',
      'paid_out',
      'refused',
      'totals',
      'unconfirmed',
    ]);
    expect(due.paid_out).toBe(due.charge_ids.length);
    expect(due.charge_ids).not.toContain(test);
    // Another file's payout run may have paid this charge first (the step pays every due charge);
    // either way it is paid out now, which the refund below proves.
    if (due.charge_ids.includes(live)) expect(Number(due.totals.USD)).toBeGreaterThanOrEqual(9.41);

    const again = await payouts(new Date(Date.now() + 3 * 86_400_000));
    expect(again.charge_ids).not.toContain(live);

    // A paid-out charge can no longer be refunded (409).
    const refund = await api('POST', '/v1/refunds/', {
      auth: basic(account.liveKey),
      body: { charge_id: live, reason: 'requested_by_customer' },
    });
    expect(refund.status).toBe(409);
    expect(refund.json).toMatchObject({ code: 409, title: 'Charge status error' });
    // The test charge was never paid out: it still refunds.
    const testRefund = await api('POST', '/v1/refunds/', {
      auth: basic(account.testKey),
      body: { charge_id: test, reason: 'requested_by_customer' },
    });
    expect(testRefund.status).toBe(201);
  });

  it('refuses a --now that is not a time', async () => {
    await expectCliRefusal(['payouts', 'run', '--now', 'tomorrow'], 2, 'not an ISO 8601 time');
  });
});
