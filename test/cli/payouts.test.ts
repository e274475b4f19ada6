/** `cobro payouts run [--now] [--account]`: live charges older than two days are paid out once; test charges never. */
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

/** `payouts run --now … --account …`: scoped, so other files' fresh live charges are left alone. */
const payouts = async (now: Date, account: number) =>
  JSON.parse((await cli('payouts', 'run', '--now', now.toISOString(), '--account', String(account))).stdout);

describe('payouts run', () => {
  it('pays out a live charge once it is two days old, once, and never a test charge', async () => {
    const account = await newAccount('payouts');
    const live = await charge(account.liveKey);
    const test = await charge(account.testKey);

    const early = await payouts(new Date(Date.now() + 86_400_000), account.developerId);
    expect(early.charge_ids).toEqual([]);

    const due = await payouts(new Date(Date.now() + 3 * 86_400_000), account.developerId);
    expect(Object.keys(due).sort()).toEqual([
      'charge_ids',
      'now',
      'paid_out',
      'refused',
      'totals',
      'unconfirmed',
    ]);
    // Only the live charge: 10.00 less the 0.59 fee.
    expect(due).toMatchObject({ paid_out: 1, charge_ids: [live], totals: { USD: '9.41' } });
    expect(due.charge_ids).not.toContain(test);

    const again = await payouts(new Date(Date.now() + 3 * 86_400_000), account.developerId);
    expect(again).toMatchObject({ paid_out: 0, charge_ids: [] });

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

  it("--account pays out that account alone: the other accounts' due charges wait for their run", async () => {
    const [mine, other] = [await newAccount('payouts-mine'), await newAccount('payouts-other')];
    const [myCharge, otherCharge] = [await charge(mine.liveKey), await charge(other.liveKey)];
    const at = new Date(Date.now() + 3 * 86_400_000);

    expect((await payouts(at, mine.developerId)).charge_ids).toEqual([myCharge]);
    // The other account's charge was not paid out: it still refunds, in part.
    const refund = await api('POST', '/v1/refunds/', {
      auth: basic(other.liveKey),
      body: { charge_id: otherCharge, amount: '1.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    // Its own run pays it out, net of that refund.
    expect(await payouts(at, other.developerId)).toMatchObject({
      charge_ids: [otherCharge],
      totals: { USD: '8.41' },
    });
  });

  it('refuses an --account that is not an account id', async () => {
    await expectCliRefusal(['payouts', 'run', '--account', 'acme'], 2, 'an account id is a positive integer');
  });

  it('refuses a --now that is not a time', async () => {
    await expectCliRefusal(['payouts', 'run', '--now', 'tomorrow'], 2, 'not an ISO 8601 time');
  });
});
