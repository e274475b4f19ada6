/** `cobro payouts run [--now] [--account]`: live charges older than two days are paid out once; test charges never. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { localEnvironment, projectRoot } from '../../infra/local/info.ts';
import { envNames } from '../../shared/core/config.ts';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { addFault, armedFaults, clearFaults, faultHits } from '../support/faults.ts';
import { expectBooksAgree } from '../support/ledger.ts';
import { api, basic, localInfo, newAccount } from '../support/stack.ts';

const run = promisify(execFile);

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

  it("meets the stack's faults: a payout the acquirer refuses is undone, and the next run pays it out", async () => {
    const since = new Date();
    const account = await newAccount('payouts-refused');
    const live = await charge(account.liveKey);
    const at = new Date(Date.now() + 3 * 86_400_000);
    await addFault({ operation: 'payout', effect: 'refuse', merchant: account.developerId, times: 1 });
    try {
      expect(await payouts(at, account.developerId)).toMatchObject({
        paid_out: 0,
        refused: 1,
        charge_ids: [],
      });
      // The CLI's own process took the fault from the stack's registry: it is spent, and hit the CLI.
      expect((await armedFaults()).filter((fault) => fault.merchant === account.developerId)).toEqual([]);
      expect(await faultHits(account.developerId)).toEqual([
        {
          caller: expect.stringMatching(/^pid \d+$/),
          operation: 'payout',
          effect: 'refuse',
          merchant: account.developerId,
          count: 1,
        },
      ]);
    } finally {
      await clearFaults(account.developerId);
    }
    // Not paid out: it still refunds, in part.
    const refund = await api('POST', '/v1/refunds/', {
      auth: basic(account.liveKey),
      body: { charge_id: live, amount: '2.00', reason: 'requested_by_customer' },
    });
    expect(refund.status, refund.text).toBe(201);
    // The next run pays it out, under a new key: its net less that refund.
    expect(await payouts(at, account.developerId)).toMatchObject({
      paid_out: 1,
      refused: 0,
      charge_ids: [live],
      totals: { USD: '7.41' },
    });
    await expectBooksAgree(account.developerId, since);
  });

  it('against a deployed table meets no fault, even with the fault variables left in the shell', async () => {
    const account = await newAccount('payouts-deployed');
    const live = await charge(account.liveKey);
    const fault = { operation: 'payout', effect: 'refuse', merchant: account.developerId, times: 1 } as const;
    await addFault(fault);
    try {
      // TABLE_NAME set: the CLI works on that table through the SDK's own configuration (here the
      // test stack's DynamoDB Local), as on a deployed stage, and reads no local.json.
      const deployed = await run(
        process.execPath,
        [
          join(projectRoot, 'bin/cli.ts'),
          ...['payouts', 'run', '--now', new Date(Date.now() + 3 * 86_400_000).toISOString()],
          ...['--account', String(account.developerId)],
        ],
        {
          cwd: projectRoot,
          env: {
            ...process.env,
            ...localEnvironment(localInfo),
            [envNames.faultsUrl]: localInfo.control_url,
            [envNames.faultsToken]: localInfo.control_token,
          },
        },
      );
      expect(JSON.parse(deployed.stdout)).toMatchObject({ paid_out: 1, refused: 0, charge_ids: [live] });
      expect(await armedFaults()).toContainEqual(fault);
    } finally {
      await clearFaults(account.developerId);
    }
  });

  it('refuses an --account that is not an account id', async () => {
    await expectCliRefusal(['payouts', 'run', '--account', 'acme'], 2, 'an account id is a positive integer');
  });

  it('refuses a --now that is not a time', async () => {
    await expectCliRefusal(['payouts', 'run', '--now', 'tomorrow'], 2, 'not an ISO 8601 time');
  });
});
