/**
 * The simulated acquirer's faults (docs/design.md#acquirer) against DynamoDB Local of the test stack:
 * down, slow, refuse and lose, on the calls and for the merchant each names, as often as it says.
 * Its test cards are ./simulated-cards.test.ts, its books ./simulated-books.test.ts; the setup they
 * share is test/support/simulated-acquirer.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  acquirer,
  acquirerWith,
  approvedCharge,
  balanceItem,
  expectUnavailable,
  operationItem,
  otherMerchant,
  payoutOf,
  refundOf,
  request,
  stored,
} from '../../test/support/simulated-acquirer.ts';
import { type AcquirerFault, FaultRegistry } from './faults.ts';
import { testCards } from './simulated.ts';

describe('faults', () => {
  const faulty = (fault: AcquirerFault) => {
    const faults = new FaultRegistry();
    faults.set([fault]);
    return { books: acquirerWith({ faults }), faults };
  };

  it('down: throws before anything is stored', async () => {
    const { books } = faulty({ operation: 'charge', effect: 'down', times: 1 });
    const charge = request(testCards.approved);
    await expectUnavailable(books.charge(charge));
    expect(await operationItem(charge.idempotencyKey)).toBeUndefined();
    // Spent: the retry goes through.
    expect(await books.charge(charge)).toMatchObject({ status: 'approved' });

    const { result } = await approvedCharge();
    for (const operation of ['refund', 'payout', 'lookup'] as const) {
      const { books: down } = faulty({ operation, effect: 'down' });
      const refund = refundOf(result.acquirerReference);
      const payout = payoutOf(result.acquirerReference);
      if (operation === 'refund') await expectUnavailable(down.refund(refund));
      if (operation === 'payout') await expectUnavailable(down.payout(payout));
      if (operation === 'lookup') {
        await expectUnavailable(down.findRefund(refund.idempotencyKey, true));
        // The lookup closed nothing: the refund can still be made.
        expect(await acquirer.refund(refund)).toMatchObject({ status: 'succeeded' });
      } else {
        expect(await operationItem(refund.idempotencyKey)).toBeUndefined();
        expect(await operationItem(payout.idempotencyKey)).toBeUndefined();
      }
    }
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ refunded: 400, paid_out: 0 });
  });

  it('slow: waits its delay, then answers', async () => {
    const { books } = faulty({ operation: 'charge', effect: 'slow', delayMs: 300 });
    const started = performance.now();
    const result = await books.charge(request(testCards.approved));
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
    expect(result.status).toBe('approved');
  });

  it('refuse: a definite refusal that moves no money, recorded under the key', async () => {
    const { books } = faulty({ operation: 'charge', effect: 'refuse', times: 1 });
    const charge = request(testCards.approved);
    const refused = await books.charge(charge);
    expect(refused).toMatchObject({
      status: 'declined',
      declineReason: 'processing_error',
      card: { last4: '4242' },
    });
    expect(await books.charge(charge)).toEqual(refused);
    expect(await operationItem(charge.idempotencyKey)).toMatchObject({ state: 'declined', movement: null });

    const { books: verifying } = faulty({ operation: 'verify', effect: 'refuse' });
    expect(await verifying.verify(request(testCards.approved))).toMatchObject({
      status: 'declined',
      declineReason: 'processing_error',
    });

    const { result } = await approvedCharge();
    const { books: renewing } = faulty({ operation: 'chargeStored', effect: 'refuse' });
    expect(await renewing.chargeStored(stored(result.cardToken))).toMatchObject({
      status: 'declined',
      declineReason: 'processing_error',
    });

    const { books: refunding } = faulty({ operation: 'refund', effect: 'refuse' });
    const refund = refundOf(result.acquirerReference);
    expect(await refunding.refund(refund)).toEqual({ status: 'failed', reason: 'refused' });
    // Recorded: without the fault the key still answers the refusal.
    expect(await acquirer.refund(refund)).toEqual({ status: 'failed', reason: 'refused' });

    const { books: paying } = faulty({ operation: 'payout', effect: 'refuse' });
    const payout = payoutOf(result.acquirerReference);
    expect(await paying.payout(payout)).toEqual({ status: 'failed', reason: 'refused' });
    expect(await acquirer.findPayout(payout.idempotencyKey, true)).toEqual({
      status: 'failed',
      reason: 'refused',
    });
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ refunded: 0, paid_out: 0 });

    const challengedCharge = request(testCards.challenge);
    const challenged = await acquirer.charge(challengedCharge);
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    const { books: completing } = faulty({ operation: 'completeChallenge', effect: 'refuse' });
    expect(await completing.completeChallenge(challenged.challengeId, 'pass')).toEqual({
      status: 'declined',
      declineReason: 'processing_error',
      card: challenged.card,
    });
    expect(await acquirer.completeChallenge(challenged.challengeId, 'pass')).toMatchObject({
      status: 'declined',
      declineReason: 'processing_error',
    });
  });

  it('lose: does the work and stores it, then times out; a lookup learns the outcome', async () => {
    const { books } = faulty({ operation: 'charge', effect: 'lose', times: 1 });
    const charge = request(testCards.approved);
    await expectUnavailable(books.charge(charge));
    const found = await acquirer.findCharge(charge.idempotencyKey, true);
    expect(found).toMatchObject({ status: 'approved', amountMinor: 1000 });
    // The fault is spent: the retry answers the stored approval.
    const {
      amountMinor: _amount,
      currency: _currency,
      ...approval
    } = found as Extract<typeof found, { status: 'approved' }>;
    expect(await books.charge(charge)).toEqual(approval);

    const { books: refunding } = faulty({ operation: 'refund', effect: 'lose' });
    const refund = refundOf(approval.acquirerReference);
    await expectUnavailable(refunding.refund(refund));
    expect(await acquirer.findRefund(refund.idempotencyKey, true)).toMatchObject({ status: 'succeeded' });

    const { books: paying } = faulty({ operation: 'payout', effect: 'lose' });
    const payout = payoutOf(approval.acquirerReference);
    await expectUnavailable(paying.payout(payout));
    expect(await acquirer.findPayout(payout.idempotencyKey, true)).toMatchObject({ status: 'paid' });
    expect(await balanceItem(approval.acquirerReference)).toMatchObject({ refunded: 400, paid_out: 641 });

    const challengedCharge = request(testCards.challenge);
    const challenged = await acquirer.charge(challengedCharge);
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    const { books: completing } = faulty({ operation: 'completeChallenge', effect: 'lose' });
    await expectUnavailable(completing.completeChallenge(challenged.challengeId, 'pass'));
    expect(await acquirer.findCharge(challengedCharge.idempotencyKey, true)).toMatchObject({
      status: 'approved',
      threeDSecure: 'challenge_passed',
    });

    // A lost lookup still closed the key it found nothing under.
    const { books: looking } = faulty({ operation: 'lookup', effect: 'lose' });
    const late = request(testCards.approved);
    await expectUnavailable(looking.findCharge(late.idempotencyKey, true));
    await expectUnavailable(acquirer.charge(late));
  });

  it('hits only the merchant it names, as often as it says', async () => {
    const { books, faults } = faulty({
      operation: 'charge',
      effect: 'down',
      merchant: otherMerchant,
      times: 2,
    });
    expect(await books.charge(request(testCards.approved))).toMatchObject({ status: 'approved' });
    await expectUnavailable(books.charge(request(testCards.approved, { merchant: otherMerchant })));
    await expectUnavailable(books.charge(request(testCards.approved, { merchant: otherMerchant })));
    expect(faults.list()).toEqual([]);
    expect(await books.charge(request(testCards.approved, { merchant: otherMerchant }))).toMatchObject({
      status: 'approved',
    });
  });
});
