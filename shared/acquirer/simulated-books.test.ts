/**
 * The simulated acquirer's books (docs/design.md#acquirer) against DynamoDB Local of the test stack:
 * idempotency, challenges, lookups that close keys, refunds capped by their charge, payouts, the
 * ledger. Its test cards are ./simulated-cards.test.ts, its faults ./simulated-faults.test.ts; the
 * setup they share is test/support/simulated-acquirer.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acquirer,
  acquirerWith,
  approvedCharge,
  balanceItem,
  cardOf,
  expectUnavailable,
  ledgerOf,
  merchant,
  newKey,
  operationItem,
  otherMerchant,
  payoutOf,
  refundOf,
  request,
  stored,
} from '../../test/support/simulated-acquirer.ts';
import { AcquirerUnavailable, type ChargeRequest, type LedgerEntry } from './acquirer.ts';
import { testCards } from './simulated.ts';

describe('idempotency', () => {
  it('answers the same outcome for the same key and mode, another for another key or mode', async () => {
    const charge = request(testCards.approved);
    const a = await acquirer.charge(charge);
    const b = await acquirer.charge(charge);
    const other = await acquirer.charge({ ...charge, idempotencyKey: newKey() });
    const live = await acquirer.charge({ ...charge, test: false });
    if (a.status !== 'approved' || b.status !== 'approved') throw new Error('expected approvals');
    expect(b).toEqual(a);
    expect(other.status === 'approved' && other.acquirerReference).not.toBe(a.acquirerReference);
    expect(live.status === 'approved' && live.acquirerReference).not.toBe(a.acquirerReference);
    // The balance was opened once, the ledger holds one entry for the key in test mode.
    expect(await balanceItem(a.acquirerReference)).toMatchObject({ amount_minor: 1000 });
    const entries = (await ledgerOf(acquirer, '2026-11-15T00:00:00Z', '2026-11-16T00:00:00Z')).filter(
      (entry) => entry.idempotencyKey === charge.idempotencyKey,
    );
    // Same time, live sorts before test.
    expect(entries.map((entry) => entry.test)).toEqual([false, true]);
  });

  it('answers racing calls with one key as one charge', async () => {
    const charge = request(testCards.approved);
    const answers = await Promise.all(Array.from({ length: 6 }, () => acquirer.charge(charge)));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
  });

  it('throws when a key comes back with another request: a caller bug, not an unknown outcome', async () => {
    const charge = request(testCards.approved);
    await acquirer.charge(charge);
    const reuses: (() => Promise<unknown>)[] = [
      () => acquirer.charge({ ...charge, amountMinor: 1001 }),
      () => acquirer.charge({ ...charge, currency: 'EUR' }),
      () => acquirer.charge({ ...charge, merchant: otherMerchant }),
      () => acquirer.verify(charge),
      () =>
        acquirer.refund(
          refundOf('sim_ch_000000000000000000000000', { idempotencyKey: charge.idempotencyKey }),
        ),
    ];
    for (const reuse of reuses) {
      const error = await reuse().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(AcquirerUnavailable);
      expect(String(error)).toContain('different request');
    }
    // A declined key too: its outcome stays the first.
    const declinedCharge = request(testCards.genericDecline);
    await acquirer.charge(declinedCharge);
    await expect(acquirer.charge({ ...declinedCharge, amountMinor: 5 })).rejects.toThrow('different request');
  });

  it('gives a passed challenge the reference its key names', async () => {
    const charge = request(testCards.challenge);
    const challenged = await acquirer.charge(charge);
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    const passed = await acquirer.completeChallenge(challenged.challengeId, 'pass');
    const found = await acquirer.findCharge(charge.idempotencyKey, true);
    expect(passed.status === 'approved' && found.status === 'approved').toBe(true);
    expect(passed.status === 'approved' && passed.acquirerReference).toBe(
      found.status === 'approved' && found.acquirerReference,
    );
  });

  it('checks a card with verify, charging nothing: no balance, no ledger entry, nothing to refund', async () => {
    const check = request(testCards.approved, { amountMinor: 0 });
    const result = await acquirer.verify(check);
    if (result.status !== 'approved') throw new Error('expected an approval');
    expect(await operationItem(check.idempotencyKey)).toMatchObject({
      operation: 'verify',
      amount_minor: 0,
      movement: null,
    });
    expect(await balanceItem(result.acquirerReference)).toBeUndefined();
    expect(await acquirer.refund(refundOf(result.acquirerReference))).toEqual({
      status: 'failed',
      reason: 'unknown_charge',
    });
    // Its amount is ignored: any amount asks the same card check.
    expect(await acquirer.verify({ ...check, amountMinor: 999 })).toEqual(result);
    // Its token charges later.
    expect(await acquirer.chargeStored(stored(result.cardToken))).toMatchObject({ status: 'approved' });

    // A card check that needs a challenge approves once passed, still charging nothing.
    const challengedCheck = request(testCards.challenge);
    const challenged = await acquirer.verify(challengedCheck);
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    const passed = await acquirer.completeChallenge(challenged.challengeId, 'pass');
    if (passed.status !== 'approved') throw new Error('expected an approval');
    expect(await balanceItem(passed.acquirerReference)).toBeUndefined();
    expect(await operationItem(challengedCheck.idempotencyKey)).toMatchObject({
      state: 'approved',
      movement: null,
    });
  });
});

describe('lookups by key', () => {
  it('finds an approved charge with its amount, a decline, and a challenge still waiting', async () => {
    const { charge, result } = await approvedCharge(testCards.approved, {
      amountMinor: 2599,
      currency: 'EUR',
    });
    expect(await acquirer.findCharge(charge.idempotencyKey, true)).toEqual({
      ...result,
      amountMinor: 2599,
      currency: 'EUR',
    });
    // Modes are apart: the live key is another one.
    expect(await acquirer.findCharge(charge.idempotencyKey, false)).toEqual({ status: 'not_found' });

    const challengedCharge = request(testCards.challenge);
    const challenged = await acquirer.charge(challengedCharge);
    expect(await acquirer.findCharge(challengedCharge.idempotencyKey, true)).toEqual(challenged);
  });

  it('closes a key it finds nothing under: a late charge with it is refused as unavailable', async () => {
    for (const late of [
      (key: string) => acquirer.charge(request(testCards.approved, { idempotencyKey: key })),
      (key: string) => acquirer.verify(request(testCards.approved, { idempotencyKey: key })),
      async (key: string) => {
        const { result } = await approvedCharge();
        return acquirer.chargeStored(stored(result.cardToken, { idempotencyKey: key }));
      },
    ]) {
      const key = newKey('sealed');
      expect(await acquirer.findCharge(key, true)).toEqual({ status: 'not_found' });
      expect(await operationItem(key)).toMatchObject({ state: 'sealed', operation: null });
      await expectUnavailable(late(key));
      // Final: still nothing, and nothing moved.
      expect(await acquirer.findCharge(key, true)).toEqual({ status: 'not_found' });
      expect(await operationItem(key)).toMatchObject({ state: 'sealed', movement: null });
    }
  });

  it('abandons a challenge nobody answered: not found, and it can no longer be completed', async () => {
    const charge = request(testCards.challenge);
    const challenged = await acquirer.charge(charge);
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    expect(await acquirer.findCharge(charge.idempotencyKey, true, { abandon: true })).toEqual({
      status: 'not_found',
    });
    await expectUnavailable(acquirer.completeChallenge(challenged.challengeId, 'pass'));
    await expectUnavailable(acquirer.charge(charge));
    expect(await acquirer.findCharge(charge.idempotencyKey, true)).toEqual({ status: 'not_found' });
    expect(await operationItem(charge.idempotencyKey)).toMatchObject({ state: 'sealed', movement: null });
  });

  it('answers a decided challenge when asked to abandon it', async () => {
    const charge = request(testCards.challenge);
    const challenged = await acquirer.charge(charge);
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    const passed = await acquirer.completeChallenge(challenged.challengeId, 'pass');
    expect(await acquirer.findCharge(charge.idempotencyKey, true, { abandon: true })).toEqual({
      ...passed,
      amountMinor: 1000,
      currency: 'USD',
    });
  });

  it('lets exactly one of a challenge answer and an abandon racing win', async () => {
    for (let round = 0; round < 6; round++) {
      const charge = request(testCards.challenge);
      const challenged = await acquirer.charge(charge);
      if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
      const [completed, found] = await Promise.allSettled([
        acquirer.completeChallenge(challenged.challengeId, 'pass'),
        acquirer.findCharge(charge.idempotencyKey, true, { abandon: true }),
      ]);
      if (completed.status === 'fulfilled') {
        expect(found).toEqual({
          status: 'fulfilled',
          value: { ...completed.value, amountMinor: 1000, currency: 'USD' },
        });
      } else {
        expect(completed.reason).toBeInstanceOf(AcquirerUnavailable);
        expect(found).toEqual({ status: 'fulfilled', value: { status: 'not_found' } });
      }
    }
  });

  it('answers not_found to two lookups racing on a key that holds nothing', async () => {
    const key = newKey('race');
    const answers = await Promise.all([acquirer.findCharge(key, true), acquirer.findCharge(key, true)]);
    expect(answers).toEqual([{ status: 'not_found' }, { status: 'not_found' }]);
  });

  it('lets exactly one of a charge and a lookup racing win, the other seeing its state', async () => {
    const outcomes = { charged: 0, sealed: 0 };
    for (let round = 0; round < 12; round++) {
      const charge = request(testCards.approved);
      const [charged, found] = await Promise.allSettled([
        acquirer.charge(charge),
        acquirer.findCharge(charge.idempotencyKey, true),
      ]);
      if (charged.status === 'fulfilled') {
        outcomes.charged += 1;
        expect(found).toEqual({
          status: 'fulfilled',
          value: { ...charged.value, amountMinor: 1000, currency: 'USD' },
        });
      } else {
        outcomes.sealed += 1;
        expect(charged.reason).toBeInstanceOf(AcquirerUnavailable);
        expect(found).toEqual({ status: 'fulfilled', value: { status: 'not_found' } });
      }
      // Afterwards every lookup agrees with the winner.
      const again = await acquirer.findCharge(charge.idempotencyKey, true);
      expect(again.status).toBe(charged.status === 'fulfilled' ? 'approved' : 'not_found');
    }
    expect(outcomes.charged + outcomes.sealed).toBe(12);
  });

  it('finds refunds and payouts by key, closing keys that hold none', async () => {
    const { result } = await approvedCharge();
    const refund = refundOf(result.acquirerReference);
    const refunded = await acquirer.refund(refund);
    expect(await acquirer.findRefund(refund.idempotencyKey, true)).toEqual(refunded);
    const payout = payoutOf(result.acquirerReference);
    const paid = await acquirer.payout(payout);
    expect(await acquirer.findPayout(payout.idempotencyKey, true)).toEqual(paid);

    const missingRefund = newKey('refund');
    expect(await acquirer.findRefund(missingRefund, true)).toEqual({ status: 'not_found' });
    await expectUnavailable(
      acquirer.refund(refundOf(result.acquirerReference, { idempotencyKey: missingRefund })),
    );
    const missingPayout = newKey('payout');
    expect(await acquirer.findPayout(missingPayout, true)).toEqual({ status: 'not_found' });
    await expectUnavailable(
      acquirer.payout(payoutOf(result.acquirerReference, { idempotencyKey: missingPayout })),
    );
    // Neither moved money.
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ refunded: 400, paid_out: 641 });
  });

  it('throws when a key is looked up as the wrong kind of call', async () => {
    const { charge, result } = await approvedCharge();
    await expect(acquirer.findRefund(charge.idempotencyKey, true)).rejects.toThrow('not a refund');
    const refund = refundOf(result.acquirerReference);
    await acquirer.refund(refund);
    await expect(acquirer.findCharge(refund.idempotencyKey, true)).rejects.toThrow('names a refund');
    await expect(acquirer.findPayout(refund.idempotencyKey, true)).rejects.toThrow('not a payout');
  });
});

describe('refunds', () => {
  it('refunds an approved charge with a re_ reference, the same one on retry', async () => {
    const { result } = await approvedCharge();
    const refund = refundOf(result.acquirerReference);
    const first = await acquirer.refund(refund);
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(first.status === 'succeeded' && first.refundReference).toMatch(/^re_[0-9a-f]{24}$/);
    expect(await acquirer.refund(refund)).toEqual(first);
    const second = await acquirer.refund({ ...refund, idempotencyKey: newKey('refund') });
    expect(second.status === 'succeeded' && second.refundReference).not.toBe(
      first.status === 'succeeded' && first.refundReference,
    );
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ refunded: 800, refundable: 200 });
  });

  it('refuses more than the charge has left, recording it under its key', async () => {
    const { result } = await approvedCharge();
    expect(await acquirer.refund(refundOf(result.acquirerReference, { amountMinor: 700 }))).toMatchObject({
      status: 'succeeded',
    });
    const tooMuch = refundOf(result.acquirerReference, { amountMinor: 301 });
    expect(await acquirer.refund(tooMuch)).toEqual({ status: 'failed', reason: 'exceeds_charge' });
    expect(await acquirer.findRefund(tooMuch.idempotencyKey, true)).toEqual({
      status: 'failed',
      reason: 'exceeds_charge',
    });
    // What is left can still be refunded; the refused key keeps its refusal.
    expect(await acquirer.refund(refundOf(result.acquirerReference, { amountMinor: 300 }))).toMatchObject({
      status: 'succeeded',
    });
    expect(await acquirer.refund(tooMuch)).toEqual({ status: 'failed', reason: 'exceeds_charge' });
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ refunded: 1000, refundable: 0 });
  });

  it('never gives back more than the charge when ten partial refunds race', async () => {
    const { result } = await approvedCharge();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        acquirer.refund(refundOf(result.acquirerReference, { amountMinor: 300 })),
      ),
    );
    expect(answers.filter((answer) => answer.status === 'succeeded')).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 'failed')).toEqual(
      Array.from({ length: 7 }, () => ({ status: 'failed', reason: 'exceeds_charge' })),
    );
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ refunded: 900, refundable: 100 });
  });

  it('keeps refunds within the charge whatever amounts race (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5000 }),
        fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 8 }),
        async (amount, refunds) => {
          const { result } = await approvedCharge(testCards.approved, { amountMinor: amount });
          const answers = await Promise.all(
            refunds.map((refund) =>
              acquirer.refund(refundOf(result.acquirerReference, { amountMinor: refund })),
            ),
          );
          const given = refunds.filter((_, index) => answers[index]?.status === 'succeeded');
          const total = given.reduce((sum, refund) => sum + refund, 0);
          expect(total).toBeLessThanOrEqual(amount);
          // What is left only shrinks, so every refusal asked for more than is left at the end.
          for (const [index, answer] of answers.entries()) {
            if (answer.status === 'failed') {
              expect(answer.reason).toBe('exceeds_charge');
              expect(refunds[index]).toBeGreaterThan(amount - total);
            }
          }
          expect(await balanceItem(result.acquirerReference)).toMatchObject({
            refunded: total,
            refundable: amount - total,
          });
        },
      ),
      { numRuns: 15 },
    );
  }, 180_000);

  it('fails a refund of a charge it never made, or of another merchant', async () => {
    expect(await acquirer.refund(refundOf('ch_elsewhere'))).toEqual({
      status: 'failed',
      reason: 'unknown_charge',
    });
    const { result } = await approvedCharge();
    const others = refundOf(result.acquirerReference, { merchant: otherMerchant });
    expect(await acquirer.refund(others)).toEqual({ status: 'failed', reason: 'unknown_charge' });
    expect(await acquirer.findRefund(others.idempotencyKey, true)).toEqual({
      status: 'failed',
      reason: 'unknown_charge',
    });
    // The live charge of the same key is another charge.
    expect(await acquirer.refund(refundOf(result.acquirerReference, { test: false }))).toEqual({
      status: 'failed',
      reason: 'unknown_charge',
    });
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ refunded: 0 });
  });

  it('throws on a refund in another currency than its charge', async () => {
    const { result } = await approvedCharge();
    await expect(acquirer.refund(refundOf(result.acquirerReference, { currency: 'EUR' }))).rejects.toThrow(
      RangeError,
    );
  });
});

describe('payouts', () => {
  it('pays out an approved charge with a po_ reference, the same one on retry, adding to its paid-out total', async () => {
    const { result } = await approvedCharge();
    const payout = payoutOf(result.acquirerReference);
    const paid = await acquirer.payout(payout);
    expect(paid).toMatchObject({ status: 'paid' });
    expect(paid.status === 'paid' && paid.payoutReference).toMatch(/^po_[0-9a-f]{24}$/);
    expect(await acquirer.payout(payout)).toEqual(paid);
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ paid_out: 641, refunded: 0 });
    await expect(acquirer.payout({ ...payout, amountMinor: 640 })).rejects.toThrow('different request');
  });

  it('fails a payout of a charge it never made, or of another merchant, recording it', async () => {
    const unknown = payoutOf('sim_ch_ffffffffffffffffffffffff');
    expect(await acquirer.payout(unknown)).toEqual({ status: 'failed', reason: 'unknown_charge' });
    expect(await acquirer.findPayout(unknown.idempotencyKey, true)).toEqual({
      status: 'failed',
      reason: 'unknown_charge',
    });
    const { result } = await approvedCharge();
    expect(await acquirer.payout(payoutOf(result.acquirerReference, { merchant: otherMerchant }))).toEqual({
      status: 'failed',
      reason: 'unknown_charge',
    });
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ paid_out: 0 });
  });
});

describe('the ledger', () => {
  // Its clocks are years ahead: the cards must outlive them.
  const farRequest = (number: string, overrides: Partial<ChargeRequest> = {}) =>
    request(number, { card: cardOf(number, { expYear: 2099 }), ...overrides });

  it('lists the money that moved in a range, oldest first, and nothing else', async () => {
    // A day no other test writes to, with a clock this test moves.
    let clock = new Date('2041-03-10T08:00:00.000Z');
    const books = acquirerWith({ clock: () => clock, booksClock: () => clock });
    const tick = () => {
      clock = new Date(clock.getTime() + 60_000);
      return clock.toISOString();
    };
    const expected: LedgerEntry[] = [];
    const entry = (fields: Omit<LedgerEntry, 'merchant' | 'test' | 'currency'> & Partial<LedgerEntry>) =>
      expected.push({ merchant, test: true, currency: 'USD', ...fields });

    // Twelve approved charges (spread over the shards), each listed at its time.
    const charges: string[] = [];
    for (let index = 0; index < 12; index++) {
      const at = tick();
      const charge = farRequest(testCards.approved, { amountMinor: 100 + index });
      const result = await books.charge(charge);
      if (result.status !== 'approved') throw new Error('expected an approval');
      charges.push(result.acquirerReference);
      entry({
        kind: 'charge',
        idempotencyKey: charge.idempotencyKey,
        reference: result.acquirerReference,
        chargeReference: null,
        amountMinor: 100 + index,
        at,
      });
    }
    const first = charges[0] as string;
    // Moved nothing: a card check, a decline, a challenge still waiting, a refused refund, an unknown payout.
    tick();
    await books.verify(farRequest(testCards.approved));
    await books.charge(farRequest(testCards.insufficientFunds));
    await books.charge(farRequest(testCards.processingError));
    const waiting = await books.charge(farRequest(testCards.challenge));
    expect(waiting.status).toBe('challenge_required');
    await books.refund(refundOf(first, { amountMinor: 5000 }));
    await books.payout(payoutOf('sim_ch_unknown'));
    // A refund, a payout, a live charge, and a challenge passed later: listed when they moved.
    let at = tick();
    const refund = refundOf(first, { amountMinor: 40 });
    const refunded = await books.refund(refund);
    if (refunded.status !== 'succeeded') throw new Error('expected a refund');
    entry({
      kind: 'refund',
      idempotencyKey: refund.idempotencyKey,
      reference: refunded.refundReference,
      chargeReference: first,
      amountMinor: 40,
      at,
    });
    at = tick();
    const payout = payoutOf(first, { amountMinor: 57 });
    const paid = await books.payout(payout);
    if (paid.status !== 'paid') throw new Error('expected a payout');
    entry({
      kind: 'payout',
      idempotencyKey: payout.idempotencyKey,
      reference: paid.payoutReference,
      chargeReference: first,
      amountMinor: 57,
      at,
    });
    at = tick();
    const live = farRequest(testCards.approved, { test: false, amountMinor: 9900, currency: 'EUR' });
    const liveResult = await books.charge(live);
    if (liveResult.status !== 'approved') throw new Error('expected an approval');
    entry({
      kind: 'charge',
      idempotencyKey: live.idempotencyKey,
      reference: liveResult.acquirerReference,
      chargeReference: null,
      amountMinor: 9900,
      currency: 'EUR',
      test: false,
      at,
    });
    tick();
    const challengedCharge = farRequest(testCards.challenge, { merchant: otherMerchant, amountMinor: 333 });
    const challenged = await books.charge(challengedCharge);
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    at = tick();
    const passed = await books.completeChallenge(challenged.challengeId, 'pass');
    if (passed.status !== 'approved') throw new Error('expected an approval');
    entry({
      kind: 'charge',
      idempotencyKey: challengedCharge.idempotencyKey,
      reference: passed.acquirerReference,
      chargeReference: null,
      amountMinor: 333,
      merchant: otherMerchant,
      at,
    });

    const day = await ledgerOf(books, '2041-03-10T00:00:00Z', '2041-03-11T00:00:00Z');
    expect(day).toEqual(expected);
    // A range takes since <= at < until.
    const [third, fourth, fifth] = expected.slice(2, 5) as [LedgerEntry, LedgerEntry, LedgerEntry];
    expect(await ledgerOf(books, third.at, fifth.at)).toEqual([third, fourth]);
    expect(await ledgerOf(books, fifth.at, fifth.at)).toEqual([]);
    expect(await ledgerOf(books, '2041-03-09T00:00:00Z', '2041-03-10T08:00:00Z')).toEqual([]);
  });

  it('merges a range spanning days oldest first', async () => {
    const times = ['2041-05-01T23:59:00.000Z', '2041-05-02T00:00:00.000Z', '2041-05-03T12:00:00.000Z'];
    const keysInOrder: string[] = [];
    // Charged out of order: the ledger orders by when the money moved.
    for (const at of [times[2], times[0], times[1]] as string[]) {
      const books = acquirerWith({ clock: () => new Date(at), booksClock: () => new Date(at) });
      const charge = farRequest(testCards.approved);
      await books.charge(charge);
      keysInOrder[times.indexOf(at)] = charge.idempotencyKey;
    }
    const listed = await ledgerOf(acquirer, '2041-05-01T00:00:00Z', '2041-05-04T00:00:00Z');
    expect(listed.map((entry) => [entry.at, entry.idempotencyKey])).toEqual(
      times.map((at, index) => [at, keysInOrder[index]]),
    );
    expect(
      (await ledgerOf(acquirer, '2041-05-02T00:00:00Z', '2041-05-03T00:00:00Z')).map((e) => e.at),
    ).toEqual([times[1]]);
  });
});
