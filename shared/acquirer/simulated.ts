/**
 * The simulated acquirer (docs/design.md#test-cards): the test-card table behind the acquirer port,
 * used by the local stack in both modes. It keeps books of its own (simulated-books.ts) as a real
 * acquirer does, apart from cobro's records: every call's outcome under its idempotency key, each
 * approved charge's balance, and a ledger of the money that moved. So a retry answers the first
 * outcome, a lookup by key finds what a lost answer did, refunds can never exceed their charge, and
 * reconciliation compares two independent sets of books.
 *
 * A challenge id and a card token carry, encoded, what finishing the challenge or charging the card
 * again needs (card summary, how the card behaves later, merchant, mode, and for a challenge its
 * key and amount) and never the card number or CVC, so callers may store them like any other
 * reference. They are not signed: they must stay server-side, which callers do anyway, and the
 * books check a challenge id against what they stored under its key.
 * References derive from the idempotency key, so a retried charge answers the same reference.
 */
import { createHash } from 'node:crypto';
import { type Mode, modeOf } from '../core/account.ts';
import { maxMinorUnits } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import {
  type Acquirer,
  AcquirerUnavailable,
  type ApprovedCharge,
  type CardBrand,
  type CardInput,
  type CardSummary,
  type ChallengeOutcome,
  type ChargeRequest,
  type ChargeResult,
  type DeclinedCharge,
  type DeclineReason,
  type FinalChargeResult,
  type FoundCharge,
  type LedgerEntry,
  type LookupHints,
  type NotFound,
  type PayoutRequest,
  type PayoutResult,
  type RefundRequest,
  type RefundResult,
  type StoredChargeRequest,
  type ThreeDSecureOutcome,
} from './acquirer.ts';
import { cvcValid, detectBrand, isExpired, luhnValid, summarizeCard } from './cards.ts';
import type { AcquirerOperation, FaultSource } from './faults.ts';
import {
  addPayout,
  type BalanceItem,
  type Books,
  decideChallenge,
  drawRefund,
  type Fingerprint,
  type Movement,
  type OperationItem,
  type OperationName,
  openBalance,
  operationItem,
  readLedger,
  readOperation,
  type Stored,
  sameRequest,
  seal,
  storeOperation,
} from './simulated-books.ts';

/** The test cards by what they do. */
export const testCards = {
  approved: '4242424242424242',
  challenge: '4000000000003220',
  genericDecline: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expiredCard: '4000000000000069',
  incorrectCvc: '4000000000000127',
  declinesWhenStored: '4000000000000341',
  /** Approved and charged, but every answer about it is lost (a timeout): only a lookup learns it. */
  answerLost: '4000000000007726',
  /** Approved; every refund of its charges is refused. */
  refundsRefused: '4000000000005126',
  /** Declined `processing_error`: the acquirer answered an error and charged nothing. */
  processingError: '4000000000000119',
} as const;

/** How an approved card behaves afterwards: what its token and its charges carry. */
interface Later {
  /** Merchant-initiated charges of the saved card: approved, or declined `generic_decline`. */
  stored: 'approve' | 'decline';
  /** Refunds of its charges: made, or refused by the acquirer. */
  refunds: 'allow' | 'refuse';
  /** Every money-moving call with the card does its work, then times out instead of answering. */
  lost: boolean;
}

type CardBehaviour =
  | { kind: 'approve'; later: Later }
  | { kind: 'challenge'; later: Later }
  | { kind: 'decline'; reason: DeclineReason };

const ordinary: Later = { stored: 'approve', refunds: 'allow', lost: false };

const behaviours: ReadonlyMap<string, CardBehaviour> = new Map<string, CardBehaviour>([
  [testCards.challenge, { kind: 'challenge', later: ordinary }],
  [testCards.genericDecline, { kind: 'decline', reason: 'generic_decline' }],
  [testCards.insufficientFunds, { kind: 'decline', reason: 'insufficient_funds' }],
  [testCards.expiredCard, { kind: 'decline', reason: 'expired_card' }],
  [testCards.incorrectCvc, { kind: 'decline', reason: 'incorrect_cvc' }],
  [testCards.declinesWhenStored, { kind: 'approve', later: { ...ordinary, stored: 'decline' } }],
  [testCards.answerLost, { kind: 'approve', later: { ...ordinary, lost: true } }],
  [testCards.refundsRefused, { kind: 'approve', later: { ...ordinary, refunds: 'refuse' } }],
  [testCards.processingError, { kind: 'decline', reason: 'processing_error' }],
]);

/** 4242 4242 4242 4242 and any other Luhn-valid number not in the table: approved, frictionless. */
const approve: CardBehaviour = { kind: 'approve', later: ordinary };

/** A plausible issuer country, the same for every card of a network. */
function issuerCountry(brand: CardBrand): string {
  if (brand === 'jcb') return 'JP';
  if (brand === 'unionpay') return 'CN';
  return 'US';
}

/** What a challenge id carries to finish its charge (or card check). */
interface ChallengeState {
  v: 2;
  operation: 'charge' | 'verify';
  amountMinor: number;
  currency: string;
  idempotencyKey: string;
  test: boolean;
  merchant: number;
  card: CardSummary;
  later: Later;
}

/** What a card token carries to charge its card again, for the merchant and mode it was saved in. */
interface TokenState {
  v: 2;
  card: CardSummary;
  later: Later;
  merchant: number;
  test: boolean;
}

const challengePrefix = 'chl_sim_';
const tokenPrefix = 'tok_sim_';
const chargePrefix = 'sim_ch_';
const refundPrefix = 're_';
const payoutPrefix = 'po_';

function encode(prefix: string, state: ChallengeState | TokenState): string {
  return prefix + Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decode(prefix: string, text: string): Record<string, unknown> | undefined {
  if (!text.startsWith(prefix)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text.slice(prefix.length), 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const brands: readonly CardBrand[] = ['visa', 'mastercard', 'amex', 'discover', 'jcb', 'unionpay', 'unknown'];

function isCardSummary(value: unknown): value is CardSummary {
  if (typeof value !== 'object' || value === null) return false;
  const card = value as Record<string, unknown>;
  return (
    brands.includes(card.brand as CardBrand) &&
    typeof card.last4 === 'string' &&
    /^\d{4}$/.test(card.last4) &&
    Number.isInteger(card.expMonth) &&
    Number.isInteger(card.expYear) &&
    typeof card.country === 'string'
  );
}

function isLater(value: unknown): value is Later {
  if (typeof value !== 'object' || value === null) return false;
  const later = value as Record<string, unknown>;
  return (
    (later.stored === 'approve' || later.stored === 'decline') &&
    (later.refunds === 'allow' || later.refunds === 'refuse') &&
    typeof later.lost === 'boolean'
  );
}

const isMerchant = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

function readChallenge(challengeId: string): ChallengeState {
  const state = decode(challengePrefix, challengeId);
  if (
    state?.v !== 2 ||
    (state.operation !== 'charge' && state.operation !== 'verify') ||
    !Number.isSafeInteger(state.amountMinor) ||
    typeof state.currency !== 'string' ||
    typeof state.idempotencyKey !== 'string' ||
    typeof state.test !== 'boolean' ||
    !isMerchant(state.merchant) ||
    !isCardSummary(state.card) ||
    !isLater(state.later)
  ) {
    throw new RangeError('not a challenge id of the simulated acquirer');
  }
  return state as unknown as ChallengeState;
}

/**
 * A token's content. Tokens of the first version (without merchant, mode, refund or
 * lost-answer behaviour) may still sit in subscriptions a local stack kept: they charge as the
 * cards they came from did then, for whichever merchant and mode asks.
 */
function readToken(cardToken: string): {
  card: CardSummary;
  later: Later;
  merchant?: number;
  test?: boolean;
} {
  const state = decode(tokenPrefix, cardToken);
  if (
    state?.v === 1 &&
    isCardSummary(state.card) &&
    (state.stored === 'approve' || state.stored === 'decline')
  ) {
    return { card: state.card, later: { ...ordinary, stored: state.stored } };
  }
  if (
    state?.v !== 2 ||
    !isCardSummary(state.card) ||
    !isLater(state.later) ||
    !isMerchant(state.merchant) ||
    typeof state.test !== 'boolean'
  ) {
    throw new RangeError('not a card token of the simulated acquirer');
  }
  return state as unknown as TokenState;
}

function hex(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

/** The same idempotency key in the same mode always names the same charge. */
function chargeReference(test: boolean, idempotencyKey: string): string {
  return chargePrefix + hex(modeOf(test), idempotencyKey);
}

/** A caller bug, not a decline: the request breaks the port's contract. */
function checkAmount(amountMinor: number, currency: string): void {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0 || amountMinor > maxMinorUnits) {
    throw new RangeError(`not a chargeable amount: ${amountMinor}`);
  }
  if (findCurrency(currency)?.code !== currency)
    throw new RangeError(`not a supported currency: ${currency}`);
}

function checkMerchant(merchant: number): void {
  if (!isMerchant(merchant)) throw new RangeError(`not a merchant (developer id): ${merchant}`);
}

/** The summary of a card even when its number is malformed, so a decline can still name the card. */
function summaryOf(card: CardInput): CardSummary {
  const brand = detectBrand(card.number);
  return summarizeCard(card, issuerCountry(brand));
}

function declined(declineReason: DeclineReason, card: CardSummary): DeclinedCharge {
  return { status: 'declined', declineReason, card };
}

/** A lookup knows its merchant only from what it finds; no account has id 0, so only faults for every merchant hit it. */
const unknownMerchant = 0;

const timedOut = (operation: AcquirerOperation) =>
  new AcquirerUnavailable(`the simulated acquirer timed out (${operation}): the outcome is unknown`);

const sealedKey = (key: string) =>
  new AcquirerUnavailable(
    `the simulated acquirer closed idempotency key ${key} when a lookup found nothing under it`,
  );

/** A call reusing a key for another request: a caller bug, never an answer. */
const keyReused = (key: string) =>
  new Error(`idempotency key ${key} was used before for a different request to the simulated acquirer`);

const chargeOperations: readonly OperationName[] = ['charge', 'verify', 'chargeStored'];

export interface SimulatedAcquirerOptions {
  /**
   * Where the acquirer keeps its books: cobro's table, in partitions of its own (./keys.ts),
   * through a client of its own so what counts cobro's calls sees cobro's only.
   */
  ledger: Books;
  /** Decides whether a card has expired (a test may age every card at once). @default () => new Date() */
  clock?: () => Date;
  /**
   * When the books say money moved: the acquirer's own wall clock, which reconciliation compares
   * with cobro's (so a test's card clock does not move the books). @default () => new Date()
   */
  booksClock?: () => Date;
  /** Faults to inject (faults.ts): asked before every call. @default none */
  faults?: FaultSource;
}

/** The simulated acquirer, with its books in `options.ledger`. */
export function createSimulatedAcquirer(options: SimulatedAcquirerOptions): Acquirer {
  const books = options.ledger;
  const clock = options.clock ?? (() => new Date());
  const booksClock = options.booksClock ?? (() => new Date());

  /**
   * The fault hitting this call: `down` throws before anything is done, `slow` waits and lets the
   * call go on; `refuse` and `lose` are for the call to apply.
   */
  async function fault(
    operation: AcquirerOperation,
    merchant: number,
  ): Promise<'refuse' | 'lose' | undefined> {
    const hit = await options.faults?.take(operation, merchant);
    if (!hit) return undefined;
    if (hit.effect === 'down') {
      throw new AcquirerUnavailable(`the simulated acquirer is unreachable (${operation})`);
    }
    if (hit.effect === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, hit.delayMs ?? 1000));
      return undefined;
    }
    return hit.effect;
  }

  /**
   * What a key already holds, answered for a call with `fingerprint`: the first outcome of the same
   * request, never a second one.
   */
  function repeated(existing: OperationItem, fingerprint: Fingerprint, key: string): OperationItem {
    if (existing.state === 'sealed') throw sealedKey(key);
    if (!sameRequest(existing, fingerprint)) throw keyReused(key);
    return existing;
  }

  function approved(
    request: { test: boolean; idempotencyKey: string; merchant: number },
    card: CardSummary,
    later: Later,
    threeDSecure: ThreeDSecureOutcome,
  ): ApprovedCharge {
    const token: TokenState = { v: 2, card, later, merchant: request.merchant, test: request.test };
    return {
      status: 'approved',
      acquirerReference: chargeReference(request.test, request.idempotencyKey),
      card,
      threeDSecure,
      cardToken: encode(tokenPrefix, token),
    };
  }

  /**
   * Records a charge's (or card check's) outcome under its key and answers what the key holds. An
   * approved charge moves money: it opens the charge's balance and enters the ledger in the same
   * transaction. A card check moves none.
   */
  async function recordCharge(
    request: { test: boolean; idempotencyKey: string },
    fingerprint: Fingerprint,
    result: ChargeResult,
    later: Later | undefined,
  ): Promise<OperationItem> {
    const mode = modeOf(request.test);
    const at = booksClock().toISOString();
    const moves = result.status === 'approved' && fingerprint.operation !== 'verify';
    const movement: Movement | null = moves
      ? { kind: 'charge', reference: chargeReference(request.test, request.idempotencyKey), at }
      : null;
    const item = operationItem(mode, request.idempotencyKey, fingerprint, {
      state: result.status === 'challenge_required' ? 'challenge' : result.status,
      result: { ...result },
      lost: later?.lost ?? false,
      movement,
      at,
    });
    const balance = movement
      ? openBalance(
          books,
          mode,
          request.idempotencyKey,
          {
            reference: movement.reference,
            merchant: fingerprint.merchant,
            amountMinor: fingerprint.amountMinor,
            currency: fingerprint.currency,
            refundsRefused: later?.refunds === 'refuse',
          },
          at,
        )
      : undefined;
    const stored = await storeOperation(books, item, balance);
    if (stored.stored) return item;
    if (stored.existing) return repeated(stored.existing, fingerprint, request.idempotencyKey);
    throw new Error(`charge ${movement?.reference} has a balance but no operation under its key`);
  }

  /** Answers a charge call from what its key holds: lost answers time out, as every time. */
  function answerCharge<T>(
    item: OperationItem,
    effect: 'refuse' | 'lose' | undefined,
    operation: AcquirerOperation,
  ): T {
    if (effect === 'lose' || item.lost) throw timedOut(operation);
    return item.result as T;
  }

  /** How the issuer answers a card typed in, charged (`charge`) or only checked (`verify`). */
  function judge(
    request: ChargeRequest,
    operation: 'charge' | 'verify',
  ): { result: ChargeResult; later: Later | undefined } {
    const card = summaryOf(request.card);
    const behaviour = behaviours.get(request.card.number) ?? approve;
    const later = behaviour.kind === 'decline' ? undefined : behaviour.later;
    // Callers validate first (cards.ts); what slips through declines as an issuer would.
    if (!/^\d{12,19}$/.test(request.card.number) || !luhnValid(request.card.number)) {
      return { result: declined('generic_decline', card), later };
    }
    if (isExpired(request.card.expMonth, request.card.expYear, clock()))
      return { result: declined('expired_card', card), later };
    if (!cvcValid(request.card.cvc, card.brand)) return { result: declined('incorrect_cvc', card), later };

    switch (behaviour.kind) {
      case 'decline':
        return { result: declined(behaviour.reason, card), later };
      case 'approve':
        return { result: approved(request, card, behaviour.later, 'frictionless'), later };
      case 'challenge': {
        if (request.threeDSecure === 'frictionless_only')
          return { result: declined('authentication_required', card), later };
        const challengeId = encode(challengePrefix, {
          v: 2,
          operation,
          amountMinor: operation === 'verify' ? 0 : request.amountMinor,
          currency: request.currency,
          idempotencyKey: request.idempotencyKey,
          test: request.test,
          merchant: request.merchant,
          card,
          later: behaviour.later,
        });
        return { result: { status: 'challenge_required', challengeId, card }, later };
      }
    }
  }

  /** A card typed in, charged or only checked. */
  async function present(request: ChargeRequest, operation: 'charge' | 'verify'): Promise<ChargeResult> {
    if (operation === 'charge') checkAmount(request.amountMinor, request.currency);
    checkMerchant(request.merchant);
    const effect = await fault(operation, request.merchant);
    const fingerprint: Fingerprint = {
      operation,
      // A card check charges nothing, whatever amount it was given.
      amountMinor: operation === 'verify' ? 0 : request.amountMinor,
      currency: request.currency,
      merchant: request.merchant,
      chargeReference: null,
    };
    const judged =
      effect === 'refuse'
        ? { result: declined('processing_error', summaryOf(request.card)), later: undefined }
        : judge(request, operation);
    const item = await recordCharge(request, fingerprint, judged.result, judged.later);
    return answerCharge<ChargeResult>(item, effect, operation);
  }

  /**
   * A refund or a payout: money moved against an approved charge, its outcome stored under its key
   * in one transaction with its change to the charge's balance (`change`, whose condition is the
   * whole rule), so a retry answers the first outcome and racing calls never move more than the
   * charge allows. `made` is its answer under the reference it gets (`prefix` and a hash of the
   * charge and the key); when the balance refuses it, `refusal` answers why, from the balance as
   * stored. A balance `currencyChecked` in another currency than the one asked is a caller bug: a
   * RangeError.
   */
  async function moveOnCharge<R extends RefundResult | PayoutResult>(
    operation: 'refund' | 'payout',
    request: RefundRequest | PayoutRequest,
    how: {
      prefix: string;
      made: (reference: string) => R & { status: 'succeeded' | 'paid' };
      change: typeof drawRefund;
      currencyChecked: (charge: BalanceItem) => boolean;
      refusal: (charge: BalanceItem | undefined) => R;
    },
  ): Promise<R> {
    checkAmount(request.amountMinor, request.currency);
    checkMerchant(request.merchant);
    const effect = await fault(operation, request.merchant);
    const mode = modeOf(request.test);
    const key = request.idempotencyKey;
    const fingerprint: Fingerprint = {
      operation,
      amountMinor: request.amountMinor,
      currency: request.currency,
      merchant: request.merchant,
      chargeReference: request.acquirerReference,
    };
    const answer = (item: OperationItem): R => {
      if (effect === 'lose') throw timedOut(operation);
      return item.result as R;
    };
    if (effect === 'refuse') {
      return answer(await recordRefusal(mode, key, fingerprint, { status: 'failed', reason: 'refused' }));
    }
    const at = booksClock().toISOString();
    const reference = how.prefix + hex(request.acquirerReference, key);
    const made = how.made(reference);
    const item = operationItem(mode, key, fingerprint, {
      state: made.status,
      result: { ...made },
      lost: false,
      movement: { kind: operation, reference, at },
      at,
    });
    const balance = how.change(books, mode, { ...request, chargeReference: request.acquirerReference }, at);
    const stored = await storeOperation(books, item, balance);
    if (stored.stored) return answer(item);
    if (stored.existing) return answer(repeated(stored.existing, fingerprint, key));
    const charge = stored.balance;
    if (charge && how.currencyChecked(charge) && charge.currency !== request.currency) {
      throw new RangeError(`charge ${charge.reference} is in ${charge.currency}, not ${request.currency}`);
    }
    return answer(await recordRefusal(mode, key, fingerprint, how.refusal(charge)));
  }

  /**
   * Stores a refund's or payout's refusal under its key (a retry answers it again) and answers what
   * the key holds.
   */
  async function recordRefusal(
    mode: Mode,
    key: string,
    fingerprint: Fingerprint,
    result: RefundResult | PayoutResult,
  ): Promise<OperationItem> {
    const item = operationItem(mode, key, fingerprint, {
      state: 'failed',
      result: { ...result },
      lost: false,
      movement: null,
      at: booksClock().toISOString(),
    });
    const stored = await storeOperation(books, item);
    if (stored.stored) return item;
    if (stored.existing) return repeated(stored.existing, fingerprint, key);
    throw new Error('a refusal has no companion write');
  }

  /** What a lookup by key finds, closing a key that holds nothing (and, on `abandon`, a challenge nobody answered). */
  async function lookup(
    mode: Mode,
    key: string,
    kinds: readonly OperationName[],
    abandon: boolean,
  ): Promise<OperationItem | undefined> {
    let item = await readOperation(books, mode, key);
    // A lookup moves no money and cannot be refused: `refuse` leaves it as unreachable as `down`.
    const effect = await fault('lookup', item?.merchant ?? unknownMerchant);
    if (effect === 'refuse') throw new AcquirerUnavailable('the simulated acquirer refused the lookup');
    const at = booksClock().toISOString();
    if (!item) {
      const sealed: Stored = await seal(books, mode, key, at);
      // A call that raced the lookup and stored first wins: answer what it did.
      item = sealed.stored ? undefined : sealed.existing;
    } else if (abandon && item.state === 'challenge') {
      const abandoned = await decideChallenge(books, mode, key, fingerprintOf(item), {
        state: 'sealed',
        result: null,
        movement: null,
        at,
      });
      item = abandoned.decided ? undefined : abandoned.existing;
    }
    if (effect === 'lose') throw timedOut('lookup');
    if (!item || item.state === 'sealed') return undefined;
    if (!item.operation || !kinds.includes(item.operation)) {
      throw new Error(`idempotency key ${key} names a ${item.operation}, not a ${kinds.join(' or ')}`);
    }
    return item;
  }

  const notFound: NotFound = { status: 'not_found' };

  return {
    cardEntry: 'form',

    charge(request: ChargeRequest): Promise<ChargeResult> {
      return present(request, 'charge');
    },

    verify(request: ChargeRequest): Promise<ChargeResult> {
      return present(request, 'verify');
    },

    async completeChallenge(challengeId: string, outcome: ChallengeOutcome): Promise<FinalChargeResult> {
      const state = readChallenge(challengeId);
      const effect = await fault('completeChallenge', state.merchant);
      const result: FinalChargeResult =
        effect === 'refuse'
          ? declined('processing_error', state.card)
          : outcome === 'pass'
            ? approved(state, state.card, state.later, 'challenge_passed')
            : declined('authentication_failed', state.card);
      const mode = modeOf(state.test);
      const key = state.idempotencyKey;
      const fingerprint: Fingerprint = {
        operation: state.operation,
        amountMinor: state.amountMinor,
        currency: state.currency,
        merchant: state.merchant,
        chargeReference: null,
      };
      const at = booksClock().toISOString();
      const moves = result.status === 'approved' && state.operation === 'charge';
      const movement: Movement | null = moves
        ? { kind: 'charge', reference: chargeReference(state.test, key), at }
        : null;
      const balance = movement
        ? openBalance(
            books,
            mode,
            key,
            {
              reference: movement.reference,
              merchant: state.merchant,
              amountMinor: state.amountMinor,
              currency: state.currency,
              refundsRefused: state.later.refunds === 'refuse',
            },
            at,
          )
        : undefined;
      const decided = await decideChallenge(
        books,
        mode,
        key,
        fingerprint,
        { state: result.status, result: { ...result }, movement, at },
        balance,
      );
      if (decided.decided) {
        if (effect === 'lose' || state.later.lost) throw timedOut('completeChallenge');
        return result;
      }
      const existing = decided.existing;
      if (!existing) throw new RangeError('not a challenge the simulated acquirer issued');
      if (existing.state === 'sealed') throw sealedKey(key);
      // Still waiting, yet the condition failed: the id does not match what its key stored.
      if (existing.state === 'challenge' || !sameRequest(existing, fingerprint)) {
        throw new RangeError('not a challenge the simulated acquirer issued');
      }
      // Decided before: the same answer again, or the decided one after a different answer.
      return answerCharge<FinalChargeResult>(existing, effect, 'completeChallenge');
    },

    async chargeStored(request: StoredChargeRequest): Promise<FinalChargeResult> {
      checkAmount(request.amountMinor, request.currency);
      checkMerchant(request.merchant);
      const token = readToken(request.cardToken);
      // A token belongs to the merchant and mode it was saved in, as at a real acquirer.
      if (
        (token.merchant !== undefined && token.merchant !== request.merchant) ||
        (token.test !== undefined && token.test !== request.test)
      ) {
        throw new RangeError('not a card token of this merchant and mode');
      }
      const effect = await fault('chargeStored', request.merchant);
      const fingerprint: Fingerprint = {
        operation: 'chargeStored',
        amountMinor: request.amountMinor,
        currency: request.currency,
        merchant: request.merchant,
        chargeReference: null,
      };
      const { card, later } = token;
      let result: FinalChargeResult;
      if (effect === 'refuse') result = declined('processing_error', card);
      else if (isExpired(card.expMonth, card.expYear, clock())) result = declined('expired_card', card);
      else if (later.stored === 'decline') result = declined('generic_decline', card);
      // Merchant-initiated: the cardholder is absent, so 3-D Secure does not apply.
      else result = approved(request, card, later, 'not_applicable');
      const item = await recordCharge(request, fingerprint, result, later);
      return answerCharge<FinalChargeResult>(item, effect, 'chargeStored');
    },

    refund(request: RefundRequest): Promise<RefundResult> {
      return moveOnCharge<RefundResult>('refund', request, {
        prefix: refundPrefix,
        made: (refundReference) => ({ status: 'succeeded', refundReference }),
        change: drawRefund,
        currencyChecked: () => true,
        // Another merchant's charge is as unknown to this one as a charge never made.
        refusal: (charge) => ({
          status: 'failed',
          reason:
            !charge || charge.merchant !== request.merchant
              ? 'unknown_charge'
              : charge.refunds_refused
                ? 'refused'
                : 'exceeds_charge',
        }),
      });
    },

    payout(request: PayoutRequest): Promise<PayoutResult> {
      return moveOnCharge<PayoutResult>('payout', request, {
        prefix: payoutPrefix,
        made: (payoutReference) => ({ status: 'paid', payoutReference }),
        change: addPayout,
        currencyChecked: (charge) => charge.merchant === request.merchant,
        refusal: () => ({ status: 'failed', reason: 'unknown_charge' }),
      });
    },

    async findCharge(
      idempotencyKey: string,
      test: boolean,
      lookupOptions: LookupHints = {},
    ): Promise<FoundCharge> {
      const item = await lookup(
        modeOf(test),
        idempotencyKey,
        chargeOperations,
        lookupOptions.abandon ?? false,
      );
      if (!item) return notFound;
      const result = item.result as unknown as ChargeResult;
      if (result.status === 'challenge_required') return result;
      return { ...result, amountMinor: item.amount_minor, currency: item.currency };
    },

    async findRefund(idempotencyKey: string, test: boolean): Promise<RefundResult | NotFound> {
      const item = await lookup(modeOf(test), idempotencyKey, ['refund'], false);
      return item ? (item.result as RefundResult) : notFound;
    },

    async findPayout(idempotencyKey: string, test: boolean): Promise<PayoutResult | NotFound> {
      const item = await lookup(modeOf(test), idempotencyKey, ['payout'], false);
      return item ? (item.result as PayoutResult) : notFound;
    },

    ledger(range: { since: Date; until: Date }): AsyncIterable<LedgerEntry> {
      return readLedger(books, range.since, range.until);
    },
  };
}

/** The fingerprint a stored operation (not a tombstone) was made with. */
function fingerprintOf(item: OperationItem): Fingerprint {
  if (!item.operation) throw new Error(`idempotency key ${item.idempotency_key} holds no operation`);
  return {
    operation: item.operation,
    amountMinor: item.amount_minor,
    currency: item.currency,
    merchant: item.merchant,
    chargeReference: item.charge_reference,
  };
}
