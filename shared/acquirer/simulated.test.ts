/**
 * The simulated acquirer (docs/design.md#acquirer, #test-cards) against DynamoDB Local of the test
 * stack: the test cards, its books (idempotency, challenges, lookups that close keys, refunds capped
 * by their charge, payouts, the ledger), the faults, and that nothing it answers or stores holds card
 * data.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useLocalEnvironment } from '../../test/support/stack.ts';
import type { Mode } from '../core/account.ts';
import { makeDeps } from '../db/deps.ts';
import {
  type Acquirer,
  AcquirerUnavailable,
  type CardInput,
  type ChargeRequest,
  type DeclineReason,
  type LedgerEntry,
  type PayoutRequest,
  type RefundRequest,
  type StoredChargeRequest,
  type ThreeDSecureMode,
} from './acquirer.ts';
import { luhnValid } from './cards.ts';
import { type AcquirerFault, FaultRegistry } from './faults.ts';
import { simulatedKeys } from './keys.ts';
import { createSimulatedAcquirer, testCards } from './simulated.ts';

useLocalEnvironment();
const { db, table } = makeDeps();

const now = new Date('2026-11-15T12:00:00Z');

/** A simulated acquirer on the test stack's table, with its own clock and faults. */
function acquirerWith(
  options: { clock?: () => Date; booksClock?: () => Date; faults?: FaultRegistry } = {},
): Acquirer {
  // The books' times follow the test's clock unless told otherwise.
  const clock = options.clock ?? (() => now);
  return createSimulatedAcquirer({ ledger: { db, table }, clock, booksClock: clock, ...options });
}

const acquirer = acquirerWith();

// A CVC that appears nowhere else in these requests, so finding it in a result or item means it leaked.
const cvc = '7319';

/** Letters only, so no key can spell a card's digits or the CVC by chance. */
const run = Array.from(
  { length: 10 },
  () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)],
).join('');
let keyCount = 0;
/** An idempotency key no other call of this run uses. */
const newKey = (label = 'key') => `${run}-${label}-${++keyCount}`;

/** The merchant most tests act for, and another; no test account reaches these ids. */
const merchant = 7_000_001;
const otherMerchant = 7_000_002;

function cardOf(number: string, overrides: Partial<CardInput> = {}): CardInput {
  return { number, expMonth: 12, expYear: 2030, cvc, holderName: 'Ada Lovelace', ...overrides };
}

function request(number: string, overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  return {
    amountMinor: 1000,
    currency: 'USD',
    description: 'Order 1',
    statementDescriptor: 'COBRO*SHOP',
    card: cardOf(number),
    idempotencyKey: newKey('charge'),
    test: true,
    merchant,
    threeDSecure: 'challenge_allowed',
    ...overrides,
  };
}

function stored(cardToken: string, overrides: Partial<StoredChargeRequest> = {}): StoredChargeRequest {
  return {
    amountMinor: 1000,
    currency: 'USD',
    description: 'Renewal',
    cardToken,
    idempotencyKey: newKey('renewal'),
    test: true,
    merchant,
    ...overrides,
  };
}

function refundOf(acquirerReference: string, overrides: Partial<RefundRequest> = {}): RefundRequest {
  return {
    acquirerReference,
    amountMinor: 400,
    currency: 'USD',
    idempotencyKey: newKey('refund'),
    test: true,
    merchant,
    ...overrides,
  };
}

function payoutOf(acquirerReference: string, overrides: Partial<PayoutRequest> = {}): PayoutRequest {
  return {
    acquirerReference,
    amountMinor: 641,
    currency: 'USD',
    idempotencyKey: newKey('payout'),
    test: true,
    merchant,
    ...overrides,
  };
}

/** An approved charge (a card in the table that approves), with its request. */
async function approvedCharge(number: string = testCards.approved, overrides: Partial<ChargeRequest> = {}) {
  const charge = request(number, overrides);
  const result = await acquirer.charge(charge);
  if (result.status !== 'approved') throw new Error(`expected an approval, got ${result.status}`);
  return { charge, result };
}

// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary attributes of stored items
type Item = Record<string, any>;

/** The operation item stored under a key, as the table holds it. */
async function operationItem(key: string, mode: Mode = 'test'): Promise<Item | undefined> {
  const read = await db.send(
    new GetCommand({
      TableName: table,
      Key: simulatedKeys.operation(mode, key),
      ConsistentRead: true,
    }),
  );
  return read.Item;
}

/** An approved charge's balance item, as the table holds it. */
async function balanceItem(reference: string, mode: Mode = 'test'): Promise<Item | undefined> {
  const read = await db.send(
    new GetCommand({
      TableName: table,
      Key: simulatedKeys.charge(mode, reference),
      ConsistentRead: true,
    }),
  );
  return read.Item;
}

async function ledgerOf(books: Acquirer, since: string, until: string): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  for await (const entry of books.ledger({ since: new Date(since), until: new Date(until) }))
    entries.push(entry);
  return entries;
}

/** Decodes the opaque strings of a value (challenge ids, card tokens) so their content is checked too. */
function payloads(value: unknown): unknown[] {
  const found: unknown[] = [];
  const walk = (node: unknown) => {
    if (typeof node === 'string') {
      const match = /^(?:chl|tok)_sim_(.+)$/.exec(node);
      if (match?.[1]) found.push(JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')));
    } else if (typeof node === 'object' && node !== null) {
      for (const child of Object.values(node)) walk(child);
    }
  };
  walk(value);
  return found;
}

/** Fails when a value, or anything encoded in it, holds the card number, its hidden digits or the CVC. */
function expectNoCardData(value: unknown, number: string) {
  // Opaque strings (alone, or ending a stored key) are checked through their decoded payloads;
  // their own characters (hex, base64) could spell four digits by chance.
  const texts = [value, ...payloads(value)].map((part) =>
    JSON.stringify(part).replace(/(["#])(?:sim_ch_|re_|po_|chl_sim_|tok_sim_)[\w-]+/g, '$1opaque'),
  );
  for (const text of texts) {
    expect(text).not.toContain(number);
    // Everything but the last four digits is secret; the last four may be shown.
    expect(text).not.toContain(number.slice(0, -4));
    expect(text).not.toContain(cvc);
    expect(text).not.toMatch(/"(?:number|cvc|holderName)"/);
  }
}

/** Fails unless `promise` rejects with AcquirerUnavailable (an unknown outcome, not a caller bug). */
async function expectUnavailable(promise: Promise<unknown>) {
  await expect(promise).rejects.toBeInstanceOf(AcquirerUnavailable);
}

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
