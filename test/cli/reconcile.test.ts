/**
 * `cobro reconcile` on books that agree with each other but break a charge's own invariants: each
 * kind of corrupted record is written into both books (cobro's and the simulated acquirer's), so
 * only the charge's own checks can find it, and the command must exit 1 naming the charge.
 */
import { describe, expect, it } from 'vitest';
import { simulatedKeys } from '../../shared/acquirer/keys.ts';
import { newAttempt, newAttemptId } from '../../shared/attempts/attempt.ts';
import { attemptKeys } from '../../shared/attempts/keys.ts';
import { attemptPut, finishWrite } from '../../shared/attempts/repository.ts';
import { chargeKeys } from '../../shared/charges/keys.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { transactWrite } from '../../shared/db/transact.ts';
import type { Mismatch } from '../../shared/ledger/reconcile.ts';
import { payoutAttemptId } from '../../shared/payouts/run.ts';
import { refundKeys } from '../../shared/refunds/keys.ts';
import { getRefund } from '../../shared/refunds/repository.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { cli } from '../support/cli.ts';
import { api, basic, newAccount, useLocalEnvironment } from '../support/stack.ts';
import { updateStored } from '../support/table.ts';

type Account = Awaited<ReturnType<typeof newAccount>>;

/** A live charge of 10.00 USD (net 9.41), through the legacy charge. */
async function liveCharge(account: Account): Promise<string> {
  const answer = await api('POST', '/v1/charges/simple/create/', {
    auth: basic(account.liveKey),
    rawBody: new URLSearchParams({
      amount: '10.00',
      currency: 'usd',
      credit_card_number: '4242424242424242',
      credit_card_security_code_number: '123',
      exp_month: '12',
      exp_year: String(new Date().getUTCFullYear() + 3),
    }).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.json.id as string;
}

async function refund(account: Account, chargeId: string, amount: string): Promise<void> {
  const answer = await api('POST', '/v1/refunds/', {
    auth: basic(account.liveKey),
    body: { charge_id: chargeId, amount, reason: 'requested_by_customer' },
  });
  expect(answer.status, answer.text).toBe(201);
}

const payouts = (account: Account) =>
  cli(
    'payouts',
    'run',
    '--now',
    new Date(Date.now() + 3 * 86_400_000).toISOString(),
    '--account',
    String(account.developerId),
  );

/** `reconcile --json` for the account: its exit code and report. */
async function reconcile(
  account: Account,
): Promise<{ code: number; mismatches: Mismatch[]; stdout: string }> {
  const args = ['reconcile', '--account', String(account.developerId), '--json'];
  try {
    const { stdout } = await cli(...args);
    return { code: 0, mismatches: JSON.parse(stdout).mismatches, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, mismatches: JSON.parse(failed.stdout).mismatches, stdout: failed.stdout };
  }
}

/** The human report of the same run: it names the charge too. */
async function reconcileText(account: Account): Promise<{ code: number; stdout: string }> {
  try {
    return { code: 0, stdout: (await cli('reconcile', '--account', String(account.developerId))).stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

const live = (account: Account) => ({ developerId: account.developerId, mode: 'live' as const });

describe('reconcile checks each charge against itself, not only against the acquirer', () => {
  it('agrees on untouched books (refunded in part, then paid out)', async () => {
    const account = await newAccount('reconcile-clean');
    const chargeId = await liveCharge(account);
    await refund(account, chargeId, '2.50');
    await payouts(account);
    expect(await reconcile(account)).toMatchObject({ code: 0, mismatches: [] });
  });

  it('a payout of the wrong amount in both books: exit 1, payout_amount, naming the charge', async () => {
    const account = await newAccount('reconcile-payout');
    const chargeId = await liveCharge(account);
    await refund(account, chargeId, '4.00');
    await payouts(account);
    useLocalEnvironment();
    const attempt = payoutAttemptId(chargeId);
    // 5.41 was owed (9.41 net less 4.00 refunded); both books say 9.41 was sent.
    await updateStored(attemptKeys.attempt(attempt), {
      UpdateExpression: 'SET amount = :wrong',
      ExpressionAttributeValues: { ':wrong': 941 },
    });
    await updateStored(chargeKeys.charge(account.developerId, 'live', chargeId), {
      UpdateExpression: 'SET payout_amount = :wrong',
      ExpressionAttributeValues: { ':wrong': 941 },
    });
    await updateStored(simulatedKeys.operation('live', attempt), {
      UpdateExpression: 'SET amount_minor = :wrong',
      ExpressionAttributeValues: { ':wrong': 941 },
    });
    const report = await reconcile(account);
    expect(report.code).toBe(1);
    expect(report.mismatches).toEqual([
      expect.objectContaining({
        kind: 'payout',
        problem: 'payout_amount',
        charge_id: chargeId,
        key: chargeId,
      }),
    ]);
    const text = await reconcileText(account);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`payout ${chargeId}: payout_amount`);
  });

  it('a refunded total that is not the sum of the refunds: exit 1, refunded_total', async () => {
    const account = await newAccount('reconcile-refunded');
    const chargeId = await liveCharge(account);
    await refund(account, chargeId, '1.00');
    // The charge says 3.00 was refunded (and keeps its balance), its one refund says 1.00.
    await updateStored(chargeKeys.charge(account.developerId, 'live', chargeId), {
      UpdateExpression: 'SET refunded = :refunded, refundable = :refundable',
      ExpressionAttributeValues: { ':refunded': 300, ':refundable': 700 },
    });
    const report = await reconcile(account);
    expect(report.code).toBe(1);
    expect(report.mismatches).toEqual([
      expect.objectContaining({ problem: 'refunded_total', charge_id: chargeId }),
    ]);
  });

  it('more refunded than the charge took, in both books: exit 1, refunded_above_charge', async () => {
    const account = await newAccount('reconcile-above');
    const chargeId = await liveCharge(account);
    await refund(account, chargeId, '10.00');
    const listed = await api('GET', `/v1/refunds/?charge_id=${chargeId}`, { auth: basic(account.liveKey) });
    const [view] = listed.json as unknown as { id: string }[];
    useLocalEnvironment();
    const stored = await getRefund(makeDeps(), live(account), view?.id ?? '');
    if (!stored?.attempt_id) throw new Error('the refund is stored with its attempt');
    // The refund, its attempt, the acquirer's books and the charge all say 12.00 of 10.00.
    await updateStored(chargeKeys.charge(account.developerId, 'live', chargeId), {
      UpdateExpression: 'SET refunded = :refunded, refundable = :refundable',
      ExpressionAttributeValues: { ':refunded': 1200, ':refundable': -200 },
    });
    await updateStored(refundKeys.refund(account.developerId, 'live', stored.id), {
      UpdateExpression: 'SET amount = :amount',
      ExpressionAttributeValues: { ':amount': 1200 },
    });
    await updateStored(attemptKeys.attempt(stored.attempt_id), {
      UpdateExpression: 'SET amount = :amount',
      ExpressionAttributeValues: { ':amount': 1200 },
    });
    await updateStored(simulatedKeys.operation('live', stored.attempt_id), {
      UpdateExpression: 'SET amount_minor = :amount',
      ExpressionAttributeValues: { ':amount': 1200 },
    });
    const report = await reconcile(account);
    expect(report.code).toBe(1);
    expect(report.mismatches).toEqual([
      expect.objectContaining({ problem: 'refunded_above_charge', charge_id: chargeId }),
    ]);
  });

  it('a balance that does not add up to the charge: exit 1, balance', async () => {
    const account = await newAccount('reconcile-balance');
    const chargeId = await liveCharge(account);
    await refund(account, chargeId, '1.00');
    // 1.00 refunded, but 9.50 left to refund: 0.50 appeared from nowhere.
    await updateStored(chargeKeys.charge(account.developerId, 'live', chargeId), {
      UpdateExpression: 'SET refundable = :refundable',
      ExpressionAttributeValues: { ':refundable': 950 },
    });
    const report = await reconcile(account);
    expect(report.code).toBe(1);
    expect(report.mismatches).toEqual([expect.objectContaining({ problem: 'balance', charge_id: chargeId })]);
  });

  it('a charge paid out twice, both payouts in both books: exit 1, paid_out_twice', async () => {
    const account = await newAccount('reconcile-twice');
    const chargeId = await liveCharge(account);
    await payouts(account);
    useLocalEnvironment();
    const deps = makeDeps();
    const charge = await getCharge(deps, live(account), chargeId);
    if (!charge) throw new Error('the charge is stored');
    // A second payout of the same charge, made at the acquirer under an attempt cobro recorded.
    const second = newAttempt({
      id: newAttemptId(),
      kind: 'payout',
      subject: {
        charge_id: chargeId,
        acquirer_reference: charge.acquirer_reference,
        paid_out_at: new Date().toISOString(),
        due_at: charge.payout_due_at ?? '',
      },
      owner: { developerId: account.developerId, mode: 'live', amount: 941, currency: 'USD' },
      now: new Date(),
    });
    await transactWrite(deps, [attemptPut(deps.table, second)]);
    const paid = await simulatedAcquirer().payout({
      acquirerReference: charge.acquirer_reference,
      amountMinor: 941,
      currency: 'USD',
      idempotencyKey: second.acquirer_key,
      test: false,
      merchant: account.developerId,
    });
    expect(paid.status).toBe('paid');
    if (paid.status !== 'paid') return;
    await transactWrite(deps, [
      finishWrite(deps.table, second, 'succeeded', { reference: paid.payoutReference }, new Date()),
    ]);
    const report = await reconcile(account);
    expect(report.code).toBe(1);
    expect(report.mismatches).toEqual([
      expect.objectContaining({ problem: 'paid_out_twice', charge_id: chargeId }),
    ]);
  });
});
