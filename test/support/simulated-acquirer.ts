/**
 * What the simulated acquirer's own suites share (shared/acquirer/simulated-cards.test.ts,
 * simulated-books.test.ts and simulated-faults.test.ts): an acquirer on the test stack's table with
 * a fixed clock, requests of each kind under keys no other call uses, the books' stored items as the
 * table holds them, and the checks that nothing holds card data and that an outcome is unknown.
 * Here rather than beside them: shared code imports no test support (.dependency-cruiser.cjs).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { expect } from 'vitest';
import {
  type Acquirer,
  AcquirerUnavailable,
  type CardInput,
  type ChargeRequest,
  type LedgerEntry,
  type PayoutRequest,
  type RefundRequest,
  type StoredChargeRequest,
} from '../../shared/acquirer/acquirer.ts';
import type { FaultRegistry } from '../../shared/acquirer/faults.ts';
import { simulatedKeys } from '../../shared/acquirer/keys.ts';
import { createSimulatedAcquirer, testCards } from '../../shared/acquirer/simulated.ts';
import type { Mode } from '../../shared/core/account.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { useLocalEnvironment } from './stack.ts';

useLocalEnvironment();
const { db, table } = makeDeps();

export const now = new Date('2026-11-15T12:00:00Z');

/** A simulated acquirer on the test stack's table, with its own clock and faults. */
export function acquirerWith(
  options: { clock?: () => Date; booksClock?: () => Date; faults?: FaultRegistry } = {},
): Acquirer {
  // The books' times follow the test's clock unless told otherwise.
  const clock = options.clock ?? (() => now);
  return createSimulatedAcquirer({ ledger: { db, table }, clock, booksClock: clock, ...options });
}

export const acquirer = acquirerWith();

// A CVC that appears nowhere else in these requests, so finding it in a result or item means it leaked.
export const cvc = '7319';

/** Letters only, so no key can spell a card's digits or the CVC by chance. */
const run = Array.from(
  { length: 10 },
  () => 'abcdefghijklmnopqrstuvwxyz'[Math.floor(Math.random() * 26)],
).join('');
let keyCount = 0;
/** An idempotency key no other call of this run uses. */
export const newKey = (label = 'key') => `${run}-${label}-${++keyCount}`;

/** The merchant most tests act for, and another; no test account reaches these ids. */
export const merchant = 7_000_001;
export const otherMerchant = 7_000_002;

export function cardOf(number: string, overrides: Partial<CardInput> = {}): CardInput {
  return { number, expMonth: 12, expYear: 2030, cvc, holderName: 'Ada Lovelace', ...overrides };
}

export function request(number: string, overrides: Partial<ChargeRequest> = {}): ChargeRequest {
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

export function stored(cardToken: string, overrides: Partial<StoredChargeRequest> = {}): StoredChargeRequest {
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

export function refundOf(acquirerReference: string, overrides: Partial<RefundRequest> = {}): RefundRequest {
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

export function payoutOf(acquirerReference: string, overrides: Partial<PayoutRequest> = {}): PayoutRequest {
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
export async function approvedCharge(
  number: string = testCards.approved,
  overrides: Partial<ChargeRequest> = {},
) {
  const charge = request(number, overrides);
  const result = await acquirer.charge(charge);
  if (result.status !== 'approved') throw new Error(`expected an approval, got ${result.status}`);
  return { charge, result };
}

// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary attributes of stored items
type Item = Record<string, any>;

/** The operation item stored under a key, as the table holds it. */
export async function operationItem(key: string, mode: Mode = 'test'): Promise<Item | undefined> {
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
export async function balanceItem(reference: string, mode: Mode = 'test'): Promise<Item | undefined> {
  const read = await db.send(
    new GetCommand({
      TableName: table,
      Key: simulatedKeys.charge(mode, reference),
      ConsistentRead: true,
    }),
  );
  return read.Item;
}

export async function ledgerOf(books: Acquirer, since: string, until: string): Promise<LedgerEntry[]> {
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
export function expectNoCardData(value: unknown, number: string) {
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
export async function expectUnavailable(promise: Promise<unknown>) {
  await expect(promise).rejects.toBeInstanceOf(AcquirerUnavailable);
}
