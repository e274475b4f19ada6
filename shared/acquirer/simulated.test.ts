import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CardInput, ChargeRequest, DeclineReason, ThreeDSecureMode } from './acquirer.ts';
import { luhnValid } from './cards.ts';
import { createSimulatedAcquirer, testCards } from './simulated.ts';

const now = new Date('2026-11-15T12:00:00Z');
const acquirer = createSimulatedAcquirer({ clock: () => now });

// A CVC that appears nowhere else in these requests, so finding it in a result means it leaked.
const cvc = '7319';

function cardOf(number: string, overrides: Partial<CardInput> = {}): CardInput {
  return { number, expMonth: 12, expYear: 2030, cvc, holderName: 'Ada Lovelace', ...overrides };
}

let keys = 0;
function request(number: string, overrides: Partial<ChargeRequest> = {}): ChargeRequest {
  keys += 1;
  return {
    amountMinor: 1000,
    currency: 'USD',
    description: 'Order 1',
    statementDescriptor: 'COBRO*SHOP',
    card: cardOf(number),
    idempotencyKey: `key-${keys}`,
    test: true,
    threeDSecure: 'challenge_allowed',
    ...overrides,
  };
}

/** Decodes the opaque strings of a result (challenge ids, card tokens) so their content is checked too. */
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

/** Fails when a result, or anything encoded in it, holds the card number, its hidden digits or the CVC. */
function expectNoCardData(result: unknown, number: string) {
  // Opaque strings are checked through their decoded payloads; their own characters (hex, base64)
  // could spell four digits by chance.
  const texts = [result, ...payloads(result)].map((value) =>
    JSON.stringify(value).replace(/"(?:sim_ch_|re_|chl_sim_|tok_sim_)[\w-]+"/g, '"opaque"'),
  );
  for (const text of texts) {
    expect(text).not.toContain(number);
    // Everything but the last four digits is secret; the last four may be shown.
    expect(text).not.toContain(number.slice(0, -4));
    expect(text).not.toContain(cvc);
    expect(text).not.toMatch(/"(?:number|cvc|holderName)"/);
  }
}

describe('the D7 test cards', () => {
  it('approves 4242 4242 4242 4242 with frictionless 3-D Secure', async () => {
    const result = await acquirer.charge(request(testCards.approved));
    expect(result).toMatchObject({
      status: 'approved',
      threeDSecure: 'frictionless',
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, country: 'US' },
    });
    expect(result.status === 'approved' && result.acquirerReference).toMatch(/^sim_ch_[0-9a-f]{24}$/);
    expect(result.status === 'approved' && result.cardToken).toMatch(/^tok_sim_/);
    expectNoCardData(result, testCards.approved);
  });

  it.each<[string, DeclineReason]>([
    [testCards.genericDecline, 'generic_decline'],
    [testCards.insufficientFunds, 'insufficient_funds'],
    [testCards.expiredCard, 'expired_card'],
    [testCards.incorrectCvc, 'incorrect_cvc'],
  ])('declines %s as %s in either 3-D Secure mode', async (number, declineReason) => {
    for (const threeDSecure of ['challenge_allowed', 'frictionless_only'] as ThreeDSecureMode[]) {
      const result = await acquirer.charge(request(number, { threeDSecure }));
      expect(result).toEqual({
        status: 'declined',
        declineReason,
        card: { brand: 'visa', last4: number.slice(-4), expMonth: 12, expYear: 2030, country: 'US' },
      });
      expectNoCardData(result, number);
    }
  });

  it('challenges 4000 0000 0000 3220, then approves when the cardholder passes', async () => {
    const charge = request(testCards.challenge);
    const first = await acquirer.charge(charge);
    expect(first).toMatchObject({ status: 'challenge_required', card: { brand: 'visa', last4: '3220' } });
    if (first.status !== 'challenge_required') throw new Error('expected a challenge');
    expect(first.challengeId).toMatch(/^chl_sim_/);
    expectNoCardData(first, testCards.challenge);

    const passed = await acquirer.completeChallenge(first.challengeId, 'pass');
    expect(passed).toMatchObject({
      status: 'approved',
      threeDSecure: 'challenge_passed',
      card: { last4: '3220', expMonth: 12, expYear: 2030 },
    });
    expectNoCardData(passed, testCards.challenge);

    // Stateless and idempotent: completing again names the same charge.
    const again = await acquirer.completeChallenge(first.challengeId, 'pass');
    expect(again).toEqual(passed);
  });

  it('declines 4000 0000 0000 3220 as authentication_failed when the cardholder fails the challenge', async () => {
    const first = await acquirer.charge(request(testCards.challenge));
    if (first.status !== 'challenge_required') throw new Error('expected a challenge');
    const failed = await acquirer.completeChallenge(first.challengeId, 'fail');
    expect(failed).toEqual({ status: 'declined', declineReason: 'authentication_failed', card: first.card });
    expectNoCardData(failed, testCards.challenge);
  });

  it('declines a card that needs a challenge as authentication_required where none can be shown (D8)', async () => {
    const result = await acquirer.charge(request(testCards.challenge, { threeDSecure: 'frictionless_only' }));
    expect(result).toMatchObject({ status: 'declined', declineReason: 'authentication_required' });
    expectNoCardData(result, testCards.challenge);
  });

  it('approves 4000 0000 0000 0341 at checkout, then declines every stored-card charge of it', async () => {
    const first = await acquirer.charge(request(testCards.declinesWhenStored));
    expect(first).toMatchObject({
      status: 'approved',
      threeDSecure: 'frictionless',
      card: { last4: '0341' },
    });
    if (first.status !== 'approved') throw new Error('expected an approval');
    expectNoCardData(first, testCards.declinesWhenStored);
    for (const period of [1, 2, 3]) {
      const renewal = await acquirer.chargeStored({
        amountMinor: 1000,
        currency: 'USD',
        description: `Renewal ${period}`,
        cardToken: first.cardToken,
        idempotencyKey: `renewal-0341-${period}`,
        test: true,
      });
      expect(renewal).toEqual({ status: 'declined', declineReason: 'generic_decline', card: first.card });
    }
  });

  it('charges other stored cards again without 3-D Secure', async () => {
    for (const number of [testCards.approved, '5555555555554444']) {
      const first = await acquirer.charge(request(number));
      if (first.status !== 'approved') throw new Error('expected an approval');
      const renewal = await acquirer.chargeStored({
        amountMinor: 2500,
        currency: 'EUR',
        description: 'Renewal',
        cardToken: first.cardToken,
        idempotencyKey: `renewal-${number}`,
        test: true,
      });
      expect(renewal).toMatchObject({ status: 'approved', threeDSecure: 'not_applicable', card: first.card });
      expect(renewal.status === 'approved' && renewal.acquirerReference).not.toBe(first.acquirerReference);
      expectNoCardData(renewal, number);
    }
    const challenged = await acquirer.charge(request(testCards.challenge));
    if (challenged.status !== 'challenge_required') throw new Error('expected a challenge');
    const passed = await acquirer.completeChallenge(challenged.challengeId, 'pass');
    if (passed.status !== 'approved') throw new Error('expected an approval');
    const renewal = await acquirer.chargeStored({
      amountMinor: 1000,
      currency: 'USD',
      description: 'Renewal',
      cardToken: passed.cardToken,
      idempotencyKey: 'renewal-3220',
      test: true,
    });
    expect(renewal).toMatchObject({ status: 'approved', threeDSecure: 'not_applicable' });
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

  it('approves random Luhn-valid numbers outside the table, leaking none of them', async () => {
    const table = new Set<string>(Object.values(testCards));
    const number = fc
      .string({ unit: fc.constantFrom(...'0123456789'), minLength: 16, maxLength: 16 })
      // A number holding the CVC's digits (ending in 7319, say) would show them as its last 4.
      .filter((digits) => luhnValid(digits) && !table.has(digits) && !digits.includes(cvc));
    await fc.assert(
      fc.asyncProperty(number, async (digits) => {
        const result = await acquirer.charge(request(digits));
        expect(result.status).toBe('approved');
        expectNoCardData(result, digits);
      }),
      { numRuns: 200 },
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
    const base = request(testCards.approved);
    const first = await acquirer.charge({ ...base, card: { ...base.card, expMonth: 11, expYear: 2026 } });
    if (first.status !== 'approved') throw new Error('expected an approval');
    const later = createSimulatedAcquirer({ clock: () => new Date('2026-12-01T00:00:00Z') });
    const renewal = await later.chargeStored({
      amountMinor: 1000,
      currency: 'USD',
      description: 'Renewal',
      cardToken: first.cardToken,
      idempotencyKey: 'renewal-expired',
      test: true,
    });
    expect(renewal).toEqual({ status: 'declined', declineReason: 'expired_card', card: first.card });
  });
});

describe('idempotency', () => {
  it('answers the same reference for the same key and mode, another for another key or mode', async () => {
    const charge = request(testCards.approved, { idempotencyKey: 'same-key' });
    const a = await acquirer.charge(charge);
    const b = await acquirer.charge(charge);
    const other = await acquirer.charge({ ...charge, idempotencyKey: 'other-key' });
    const live = await acquirer.charge({ ...charge, test: false });
    if (a.status !== 'approved' || b.status !== 'approved') throw new Error('expected approvals');
    expect(b.acquirerReference).toBe(a.acquirerReference);
    expect(other.status === 'approved' && other.acquirerReference).not.toBe(a.acquirerReference);
    expect(live.status === 'approved' && live.acquirerReference).not.toBe(a.acquirerReference);
  });

  it('gives a passed challenge the reference its key names', async () => {
    const direct = await acquirer.charge(request(testCards.approved, { idempotencyKey: 'challenge-key' }));
    const challenged = await acquirer.charge(
      request(testCards.challenge, { idempotencyKey: 'challenge-key' }),
    );
    if (direct.status !== 'approved' || challenged.status !== 'challenge_required')
      throw new Error('unexpected');
    const passed = await acquirer.completeChallenge(challenged.challengeId, 'pass');
    expect(passed.status === 'approved' && passed.acquirerReference).toBe(direct.acquirerReference);
  });
});

describe('refund', () => {
  it('refunds an approved charge with a re_ reference, the same one on retry', async () => {
    const charge = await acquirer.charge(request(testCards.approved));
    if (charge.status !== 'approved') throw new Error('expected an approval');
    const refund = {
      acquirerReference: charge.acquirerReference,
      amountMinor: 400,
      currency: 'USD',
      idempotencyKey: 'refund-1',
    };
    const first = await acquirer.refund(refund);
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(first.status === 'succeeded' && first.refundReference).toMatch(/^re_[0-9a-f]{24}$/);
    expect(await acquirer.refund(refund)).toEqual(first);
    const second = await acquirer.refund({ ...refund, idempotencyKey: 'refund-2' });
    expect(second.status === 'succeeded' && second.refundReference).not.toBe(
      first.status === 'succeeded' && first.refundReference,
    );
  });

  it('fails a refund of a charge it never made', async () => {
    expect(
      await acquirer.refund({
        acquirerReference: 'ch_elsewhere',
        amountMinor: 100,
        currency: 'USD',
        idempotencyKey: 'r',
      }),
    ).toEqual({ status: 'failed', reason: 'unknown_charge' });
  });
});

describe('contract violations', () => {
  it('throws on an amount or currency outside the contract', async () => {
    await expect(acquirer.charge(request(testCards.approved, { amountMinor: 0 }))).rejects.toThrow(
      RangeError,
    );
    await expect(acquirer.charge(request(testCards.approved, { amountMinor: 10.5 }))).rejects.toThrow(
      RangeError,
    );
    await expect(acquirer.charge(request(testCards.approved, { currency: 'usd' }))).rejects.toThrow(
      RangeError,
    );
    await expect(acquirer.charge(request(testCards.approved, { currency: 'XXX' }))).rejects.toThrow(
      RangeError,
    );
  });

  it('throws on a challenge id or card token it did not issue', async () => {
    await expect(acquirer.completeChallenge('chl_sim_bm9wZQ', 'pass')).rejects.toThrow(RangeError);
    await expect(acquirer.completeChallenge('whatever', 'pass')).rejects.toThrow(RangeError);
    const forged = `tok_sim_${Buffer.from(JSON.stringify({ v: 1, card: {}, stored: 'approve' })).toString('base64url')}`;
    await expect(
      acquirer.chargeStored({
        amountMinor: 100,
        currency: 'USD',
        description: 'x',
        cardToken: forged,
        idempotencyKey: 'k',
        test: true,
      }),
    ).rejects.toThrow(RangeError);
  });
});
