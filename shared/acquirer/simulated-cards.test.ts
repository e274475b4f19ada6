/**
 * The simulated acquirer (docs/design.md#acquirer, #test-cards) against DynamoDB Local of the test
 * stack: the test cards, cards that slip past validation, that nothing it answers or stores holds
 * card data, and the calls outside its contract. Its books are ./simulated-books.test.ts, its faults
 * ./simulated-faults.test.ts; the setup they share is test/support/simulated-acquirer.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acquirer,
  acquirerWith,
  approvedCharge,
  balanceItem,
  cardOf,
  cvc,
  expectNoCardData,
  expectUnavailable,
  ledgerOf,
  merchant,
  newKey,
  now,
  operationItem,
  otherMerchant,
  refundOf,
  request,
  stored,
} from '../../test/support/simulated-acquirer.ts';
import {
  AcquirerUnavailable,
  type CardInput,
  type DeclineReason,
  type ThreeDSecureMode,
} from './acquirer.ts';
import { luhnValid } from './cards.ts';
import { testCards } from './simulated.ts';

describe('the test cards', () => {
  it('approves 4242 4242 4242 4242 with frictionless 3-D Secure', async () => {
    const charge = request(testCards.approved);
    const result = await acquirer.charge(charge);
    expect(result).toMatchObject({
      status: 'approved',
      threeDSecure: 'frictionless',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, country: 'US' },
    });
    expect(result.status === 'approved' && result.acquirerReference).toMatch(/^sim_ch_[0-9a-f]{24}$/);
    expect(result.status === 'approved' && result.cardToken).toMatch(/^tok_sim_/);
    expectNoCardData(result, testCards.approved);
    // Its books: the outcome under the key, and the charge's balance.
    expect(await operationItem(charge.idempotencyKey)).toMatchObject({
      operation: 'charge',
      state: 'approved',
      amount_minor: 1000,
      currency: 'USD',
      merchant,
      result,
    });
    if (result.status !== 'approved') throw new Error('expected an approval');
    expect(await balanceItem(result.acquirerReference)).toMatchObject({
      amount_minor: 1000,
      refunded: 0,
      paid_out: 0,
      merchant,
    });
  });

  it.each<[string, DeclineReason]>([
    [testCards.genericDecline, 'generic_decline'],
    [testCards.insufficientFunds, 'insufficient_funds'],
    [testCards.expiredCard, 'expired_card'],
    [testCards.incorrectCvc, 'incorrect_cvc'],
    [testCards.processingError, 'processing_error'],
  ])('declines %s as %s in either 3-D Secure mode, charging nothing', async (number, declineReason) => {
    for (const threeDSecure of ['challenge_allowed', 'frictionless_only'] as ThreeDSecureMode[]) {
      const charge = request(number, { threeDSecure });
      const result = await acquirer.charge(charge);
      expect(result).toEqual({
        status: 'declined',
        declineReason,
        card: { brand: 'visa', last4: number.slice(-4), expMonth: 12, expYear: 2030, country: 'US' },
      });
      expectNoCardData(result, number);
      // Recorded as declined: the same key answers it again, and no balance was opened.
      expect(await operationItem(charge.idempotencyKey)).toMatchObject({ state: 'declined', movement: null });
      expect(await acquirer.charge(charge)).toEqual(result);
      expect(await acquirer.findCharge(charge.idempotencyKey, true)).toEqual({
        ...result,
        amountMinor: 1000,
        currency: 'USD',
      });
    }
  });

  it('challenges 4000 0000 0000 3220, then approves when the cardholder passes', async () => {
    const charge = request(testCards.challenge);
    const first = await acquirer.charge(charge);
    expect(first).toMatchObject({ status: 'challenge_required', card: { brand: 'visa', last4: '3220' } });
    if (first.status !== 'challenge_required') throw new Error('expected a challenge');
    expect(first.challengeId).toMatch(/^chl_sim_/);
    expectNoCardData(first, testCards.challenge);
    expect(await operationItem(charge.idempotencyKey)).toMatchObject({ state: 'challenge' });
    // Asked again while waiting: the same challenge.
    expect(await acquirer.charge(charge)).toEqual(first);

    const passed = await acquirer.completeChallenge(first.challengeId, 'pass');
    expect(passed).toMatchObject({
      status: 'approved',
      threeDSecure: 'challenge_passed',
      card: { last4: '3220', expMonth: 12, expYear: 2030 },
    });
    expectNoCardData(passed, testCards.challenge);
    if (passed.status !== 'approved') throw new Error('expected an approval');
    expect(await balanceItem(passed.acquirerReference)).toMatchObject({ amount_minor: 1000, refunded: 0 });

    // The same answer again, a different answer, and the charge's key: all the decided approval.
    expect(await acquirer.completeChallenge(first.challengeId, 'pass')).toEqual(passed);
    expect(await acquirer.completeChallenge(first.challengeId, 'fail')).toEqual(passed);
    expect(await acquirer.charge(charge)).toEqual(passed);
  });

  it('declines 4000 0000 0000 3220 as authentication_failed when the cardholder fails the challenge', async () => {
    const charge = request(testCards.challenge);
    const first = await acquirer.charge(charge);
    if (first.status !== 'challenge_required') throw new Error('expected a challenge');
    const failed = await acquirer.completeChallenge(first.challengeId, 'fail');
    expect(failed).toEqual({ status: 'declined', declineReason: 'authentication_failed', card: first.card });
    expectNoCardData(failed, testCards.challenge);
    expect(await acquirer.completeChallenge(first.challengeId, 'pass')).toEqual(failed);
    expect(await acquirer.findCharge(charge.idempotencyKey, true)).toMatchObject({
      status: 'declined',
      declineReason: 'authentication_failed',
    });
  });

  it('declines a card that needs a challenge as authentication_required where none can be shown', async () => {
    const result = await acquirer.charge(request(testCards.challenge, { threeDSecure: 'frictionless_only' }));
    expect(result).toMatchObject({ status: 'declined', declineReason: 'authentication_required' });
    expectNoCardData(result, testCards.challenge);
  });

  it('approves 4000 0000 0000 0341 at checkout, then declines every stored-card charge of it', async () => {
    const { result: first } = await approvedCharge(testCards.declinesWhenStored);
    expect(first).toMatchObject({ threeDSecure: 'frictionless', card: { last4: '0341' } });
    expectNoCardData(first, testCards.declinesWhenStored);
    for (const period of [1, 2, 3]) {
      const renewal = await acquirer.chargeStored(
        stored(first.cardToken, { description: `Renewal ${period}` }),
      );
      expect(renewal).toEqual({ status: 'declined', declineReason: 'generic_decline', card: first.card });
    }
  });

  it('charges other stored cards again without 3-D Secure', async () => {
    for (const number of [testCards.approved, '5555555555554444']) {
      const { result: first } = await approvedCharge(number);
      const renewal = await acquirer.chargeStored(
        stored(first.cardToken, { amountMinor: 2500, currency: 'EUR' }),
      );
      expect(renewal).toMatchObject({ status: 'approved', threeDSecure: 'not_applicable', card: first.card });
      expect(renewal.status === 'approved' && renewal.acquirerReference).not.toBe(first.acquirerReference);
      expectNoCardData(renewal, number);
    }
    const challenged = await acquirer.charge(request(testCards.challenge));
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    const passed = await acquirer.completeChallenge(challenged.challengeId, 'pass');
    if (passed.status !== 'approved') throw new Error('expected an approval');
    const renewal = await acquirer.chargeStored(stored(passed.cardToken));
    expect(renewal).toMatchObject({ status: 'approved', threeDSecure: 'not_applicable' });
  });

  it('approves 4000 0000 0000 7726 and charges it, but every answer about it is lost', async () => {
    const charge = request(testCards.answerLost);
    await expectUnavailable(acquirer.charge(charge));
    // A retry with the key does not charge again, and its answer is lost too.
    await expectUnavailable(acquirer.charge(charge));
    const found = await acquirer.findCharge(charge.idempotencyKey, true);
    expect(found).toMatchObject({
      status: 'approved',
      threeDSecure: 'frictionless',
      card: { last4: '7726' },
      amountMinor: 1000,
      currency: 'USD',
    });
    if (found.status !== 'approved') throw new Error('expected an approval');
    expectNoCardData(found, testCards.answerLost);
    expect(await balanceItem(found.acquirerReference)).toMatchObject({ amount_minor: 1000, refunded: 0 });

    // Charged once: one ledger entry for its key, however often it was asked.
    const entries = (await ledgerOf(acquirer, '2026-11-15T00:00:00Z', '2026-11-16T00:00:00Z')).filter(
      (entry) => entry.idempotencyKey === charge.idempotencyKey,
    );
    expect(entries).toEqual([
      {
        kind: 'charge',
        idempotencyKey: charge.idempotencyKey,
        reference: found.acquirerReference,
        chargeReference: null,
        amountMinor: 1000,
        currency: 'USD',
        merchant,
        test: true,
        at: now.toISOString(),
      },
    ]);

    // Its saved card loses the renewals' answers too, and a card check's.
    const renewal = stored(found.cardToken);
    await expectUnavailable(acquirer.chargeStored(renewal));
    expect(await acquirer.findCharge(renewal.idempotencyKey, true)).toMatchObject({
      status: 'approved',
      threeDSecure: 'not_applicable',
    });
    const check = request(testCards.answerLost);
    await expectUnavailable(acquirer.verify(check));
    expect(await acquirer.findCharge(check.idempotencyKey, true)).toMatchObject({
      status: 'approved',
      amountMinor: 0,
    });
    // Its refunds are answered as any other's.
    expect(await acquirer.refund(refundOf(found.acquirerReference))).toMatchObject({ status: 'succeeded' });
  });

  it('approves 4000 0000 0000 5126, then refuses every refund of it, moving nothing', async () => {
    const { result } = await approvedCharge(testCards.refundsRefused);
    expect(result.card.last4).toBe('5126');
    const refund = refundOf(result.acquirerReference);
    expect(await acquirer.refund(refund)).toEqual({ status: 'failed', reason: 'refused' });
    // Recorded: a retry answers it again, and so does a lookup.
    expect(await acquirer.refund(refund)).toEqual({ status: 'failed', reason: 'refused' });
    expect(await acquirer.findRefund(refund.idempotencyKey, true)).toEqual({
      status: 'failed',
      reason: 'refused',
    });
    expect(await acquirer.refund(refundOf(result.acquirerReference, { amountMinor: 1 }))).toEqual({
      status: 'failed',
      reason: 'refused',
    });
    expect(await balanceItem(result.acquirerReference)).toMatchObject({ refunded: 0, refundable: 1000 });
    // Renewals of its saved card are refused refunds too.
    const renewal = await acquirer.chargeStored(stored(result.cardToken));
    if (renewal.status !== 'approved') throw new Error('expected an approval');
    expect(await acquirer.refund(refundOf(renewal.acquirerReference))).toEqual({
      status: 'failed',
      reason: 'refused',
    });
  });

  it('approves any other Luhn-valid number, with a plausible country', async () => {
    const cases: [string, string, string, string][] = [
      ['5555555555554444', '1234', 'mastercard', 'US'],
      ['378282246310005', '1234', 'amex', 'US'],
      ['6011111111111117', '123', 'discover', 'US'],
      ['3530111333300000', '123', 'jcb', 'JP'],
      ['6200000000000005', '123', 'unionpay', 'CN'],
    ];
    for (const [number, code, brand, country] of cases) {
      const result = await acquirer.charge({ ...request(number), card: cardOf(number, { cvc: code }) });
      expect(result, number).toMatchObject({
        status: 'approved',
        threeDSecure: 'frictionless',
        card: { brand, country },
      });
    }
  });

  it('lists only Luhn-valid numbers as test cards', () => {
    for (const number of Object.values(testCards)) expect(luhnValid(number), number).toBe(true);
  });

  it('approves random Luhn-valid numbers outside the table, storing and answering none of them', async () => {
    const tableCards = new Set<string>(Object.values(testCards));
    const number = fc
      .string({ unit: fc.constantFrom(...'0123456789'), minLength: 16, maxLength: 16 })
      // A number holding the CVC's digits (ending in 7319, say) would show them as its last 4.
      .filter((digits) => luhnValid(digits) && !tableCards.has(digits) && !digits.includes(cvc));
    await fc.assert(
      fc.asyncProperty(number, async (digits) => {
        const charge = request(digits);
        const result = await acquirer.charge(charge);
        expect(result.status).toBe('approved');
        expectNoCardData(result, digits);
        expectNoCardData(await operationItem(charge.idempotencyKey), digits);
      }),
      { numRuns: 40 },
    );
  });
});

describe('cards that slip past validation', () => {
  it.each<[string, Partial<CardInput>, DeclineReason]>([
    ['a number failing Luhn', { number: '4242424242424241' }, 'generic_decline'],
    ['a malformed number', { number: '4242 4242 4242 4242' }, 'generic_decline'],
    ['last month', { expMonth: 10, expYear: 2026 }, 'expired_card'],
    ['a 2-digit CVC', { cvc: '12' }, 'incorrect_cvc'],
    ['a 5-digit CVC on American Express', { number: '378282246310005', cvc: '12345' }, 'incorrect_cvc'],
  ])('declines %s', async (_label, overrides, declineReason) => {
    const base = request(testCards.approved);
    const result = await acquirer.charge({ ...base, card: { ...base.card, ...overrides } });
    expect(result).toMatchObject({ status: 'declined', declineReason });
  });

  it('accepts this month as not yet expired', async () => {
    const base = request(testCards.approved);
    const result = await acquirer.charge({ ...base, card: { ...base.card, expMonth: 11, expYear: 2026 } });
    expect(result.status).toBe('approved');
  });

  it('declines a stored card once its expiry has passed', async () => {
    const { result: first } = await approvedCharge(testCards.approved, {
      card: cardOf(testCards.approved, { expMonth: 11, expYear: 2026 }),
    });
    const later = acquirerWith({ clock: () => new Date('2026-12-01T00:00:00Z') });
    const renewal = await later.chargeStored(stored(first.cardToken));
    expect(renewal).toEqual({ status: 'declined', declineReason: 'expired_card', card: first.card });
  });
});

describe('card data in the books', () => {
  it('stores no card number, hidden digits or CVC, whatever the card and the call', async () => {
    for (const number of [...Object.values(testCards), '5555555555554444']) {
      const charge = request(number);
      const check = request(number);
      const answers = await Promise.allSettled([acquirer.charge(charge), acquirer.verify(check)]);
      const items = [await operationItem(charge.idempotencyKey), await operationItem(check.idempotencyKey)];
      for (const answer of answers) {
        if (answer.status === 'fulfilled' && answer.value.status === 'challenge_required') {
          await acquirer.completeChallenge(answer.value.challengeId, 'pass');
        }
      }
      const found = await acquirer.findCharge(charge.idempotencyKey, true);
      if (found.status === 'approved') {
        const renewal = stored(found.cardToken);
        await acquirer.chargeStored(renewal).catch((error: unknown) => {
          if (!(error instanceof AcquirerUnavailable)) throw error;
        });
        const refund = refundOf(found.acquirerReference);
        await acquirer.refund(refund);
        items.push(
          await operationItem(renewal.idempotencyKey),
          await operationItem(refund.idempotencyKey),
          await balanceItem(found.acquirerReference),
        );
      }
      items.push(await operationItem(charge.idempotencyKey), await operationItem(check.idempotencyKey));
      expect(items.every((item) => item !== undefined)).toBe(true);
      expectNoCardData(items, number);
      expectNoCardData(answers, number);
    }
  }, 120_000);
});

describe('contract violations', () => {
  it('throws on an amount, currency or merchant outside the contract', async () => {
    for (const overrides of [
      { amountMinor: 0 },
      { amountMinor: 10.5 },
      { currency: 'usd' },
      { currency: 'XXX' },
      { merchant: 0 },
      { merchant: 1.5 },
    ]) {
      await expect(acquirer.charge(request(testCards.approved, overrides))).rejects.toThrow(RangeError);
    }
  });

  it('throws on a challenge id or card token it did not issue, or for another merchant', async () => {
    await expect(acquirer.completeChallenge('chl_sim_bm9wZQ', 'pass')).rejects.toThrow(RangeError);
    await expect(acquirer.completeChallenge('whatever', 'pass')).rejects.toThrow(RangeError);
    const forged = `tok_sim_${Buffer.from(JSON.stringify({ v: 1, card: {}, stored: 'approve' })).toString('base64url')}`;
    await expect(acquirer.chargeStored(stored(forged))).rejects.toThrow(RangeError);

    const { result } = await approvedCharge();
    await expect(
      acquirer.chargeStored(stored(result.cardToken, { merchant: otherMerchant })),
    ).rejects.toThrow(RangeError);
    await expect(acquirer.chargeStored(stored(result.cardToken, { test: false }))).rejects.toThrow(
      RangeError,
    );

    // A challenge id altered to ask for another amount does not match what its key stored.
    const challenged = await acquirer.charge(request(testCards.challenge));
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    const state = JSON.parse(
      Buffer.from(challenged.challengeId.slice('chl_sim_'.length), 'base64url').toString(),
    );
    const altered = `chl_sim_${Buffer.from(JSON.stringify({ ...state, amountMinor: 1 })).toString('base64url')}`;
    await expect(acquirer.completeChallenge(altered, 'pass')).rejects.toThrow(RangeError);
    const unknown = `chl_sim_${Buffer.from(JSON.stringify({ ...state, idempotencyKey: newKey() })).toString('base64url')}`;
    await expect(acquirer.completeChallenge(unknown, 'pass')).rejects.toThrow(RangeError);
    // The genuine one still completes.
    expect(await acquirer.completeChallenge(challenged.challengeId, 'pass')).toMatchObject({
      status: 'approved',
    });
  });

  it('still charges a card token of the first version (kept by an older local stack)', async () => {
    const card = { brand: 'visa', last4: '0341', expMonth: 12, expYear: 2030, country: 'US' };
    const token = (stored: string) =>
      `tok_sim_${Buffer.from(JSON.stringify({ v: 1, card, stored })).toString('base64url')}`;
    expect(await acquirer.chargeStored(stored(token('approve')))).toMatchObject({ status: 'approved' });
    expect(await acquirer.chargeStored(stored(token('decline')))).toMatchObject({
      status: 'declined',
      declineReason: 'generic_decline',
    });
  });
});
