/**
 * The simulated acquirer of D7: the test-card table behind the acquirer port, used by the local
 * stack in both modes. It keeps no state. A challenge id and a card token carry, encoded, what
 * finishing the challenge or charging the card again needs (card summary, amount, idempotency key,
 * how the card behaves later) and never the card number or CVC, so callers may store them like any
 * other reference. They are not signed: they must stay server-side, which callers do anyway.
 * References derive from the idempotency key, so a retried charge answers the same reference.
 */
import { createHash } from 'node:crypto';
import { maxMinorUnits } from '../core/money/amount.ts';
import { findCurrency } from '../core/money/currencies.ts';
import type {
  Acquirer,
  ApprovedCharge,
  CardBrand,
  CardInput,
  CardSummary,
  ChallengeOutcome,
  ChargeRequest,
  ChargeResult,
  DeclinedCharge,
  DeclineReason,
  FinalChargeResult,
  RefundRequest,
  RefundResult,
  StoredChargeRequest,
  ThreeDSecureOutcome,
} from './acquirer.ts';
import { cvcValid, detectBrand, isExpired, luhnValid, summarizeCard } from './cards.ts';

/** The D7 test cards by what they do. */
export const testCards = {
  approved: '4242424242424242',
  challenge: '4000000000003220',
  genericDecline: '4000000000000002',
  insufficientFunds: '4000000000009995',
  expiredCard: '4000000000000069',
  incorrectCvc: '4000000000000127',
  declinesWhenStored: '4000000000000341',
} as const;

/** Whether later merchant-initiated charges of a saved card go through. */
type StoredBehaviour = 'approve' | 'decline';

type CardBehaviour =
  | { kind: 'approve'; stored: StoredBehaviour }
  | { kind: 'challenge' }
  | { kind: 'decline'; reason: DeclineReason };

const behaviours: ReadonlyMap<string, CardBehaviour> = new Map<string, CardBehaviour>([
  [testCards.challenge, { kind: 'challenge' }],
  [testCards.genericDecline, { kind: 'decline', reason: 'generic_decline' }],
  [testCards.insufficientFunds, { kind: 'decline', reason: 'insufficient_funds' }],
  [testCards.expiredCard, { kind: 'decline', reason: 'expired_card' }],
  [testCards.incorrectCvc, { kind: 'decline', reason: 'incorrect_cvc' }],
  [testCards.declinesWhenStored, { kind: 'approve', stored: 'decline' }],
]);

/** 4242 4242 4242 4242 and any other Luhn-valid number not in the table: approved, frictionless. */
const approve: CardBehaviour = { kind: 'approve', stored: 'approve' };

/** A plausible issuer country, the same for every card of a network. */
function issuerCountry(brand: CardBrand): string {
  if (brand === 'jcb') return 'JP';
  if (brand === 'unionpay') return 'CN';
  return 'US';
}

/** What a challenge id carries to finish its charge. */
interface ChallengeState {
  v: 1;
  amountMinor: number;
  currency: string;
  idempotencyKey: string;
  test: boolean;
  card: CardSummary;
  stored: StoredBehaviour;
}

/** What a card token carries to charge its card again. */
interface TokenState {
  v: 1;
  card: CardSummary;
  stored: StoredBehaviour;
}

const challengePrefix = 'chl_sim_';
const tokenPrefix = 'tok_sim_';
const chargePrefix = 'sim_ch_';
const refundPrefix = 're_';
const chargeReferencePattern = /^sim_ch_[0-9a-f]{24}$/;

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

function isStoredBehaviour(value: unknown): value is StoredBehaviour {
  return value === 'approve' || value === 'decline';
}

function readChallenge(challengeId: string): ChallengeState {
  const state = decode(challengePrefix, challengeId);
  if (
    state?.v !== 1 ||
    !Number.isSafeInteger(state.amountMinor) ||
    typeof state.currency !== 'string' ||
    typeof state.idempotencyKey !== 'string' ||
    typeof state.test !== 'boolean' ||
    !isCardSummary(state.card) ||
    !isStoredBehaviour(state.stored)
  ) {
    throw new RangeError('not a challenge id of the simulated acquirer');
  }
  return state as unknown as ChallengeState;
}

function readToken(cardToken: string): TokenState {
  const state = decode(tokenPrefix, cardToken);
  if (state?.v !== 1 || !isCardSummary(state.card) || !isStoredBehaviour(state.stored)) {
    throw new RangeError('not a card token of the simulated acquirer');
  }
  return state as unknown as TokenState;
}

function hex(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 24);
}

/** The same idempotency key in the same mode always names the same charge. */
function chargeReference(test: boolean, idempotencyKey: string): string {
  return chargePrefix + hex(test ? 'test' : 'live', idempotencyKey);
}

/** A caller bug, not a decline: the request breaks the port's contract. */
function checkAmount(amountMinor: number, currency: string): void {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0 || amountMinor > maxMinorUnits) {
    throw new RangeError(`not a chargeable amount: ${amountMinor}`);
  }
  if (findCurrency(currency)?.code !== currency)
    throw new RangeError(`not a supported currency: ${currency}`);
}

/** The summary of a card even when its number is malformed, so a decline can still name the card. */
function summaryOf(card: CardInput): CardSummary {
  const brand = detectBrand(card.number);
  return summarizeCard(card, issuerCountry(brand));
}

function declined(declineReason: DeclineReason, card: CardSummary): DeclinedCharge {
  return { status: 'declined', declineReason, card };
}

export interface SimulatedAcquirerOptions {
  /** Decides whether a card has expired. @default () => new Date() */
  clock?: () => Date;
}

/** The D7 simulated acquirer. */
export function createSimulatedAcquirer(options: SimulatedAcquirerOptions = {}): Acquirer {
  const clock = options.clock ?? (() => new Date());

  function approved(
    request: { test: boolean; idempotencyKey: string },
    card: CardSummary,
    stored: StoredBehaviour,
    threeDSecure: ThreeDSecureOutcome,
  ): ApprovedCharge {
    return {
      status: 'approved',
      acquirerReference: chargeReference(request.test, request.idempotencyKey),
      card,
      threeDSecure,
      cardToken: encode(tokenPrefix, { v: 1, card, stored }),
    };
  }

  /** A card typed in, charged (`verify` false) or only checked. */
  function present(request: ChargeRequest, verify: boolean): ChargeResult {
    if (!verify) checkAmount(request.amountMinor, request.currency);
    const card = summaryOf(request.card);
    // Callers validate first (cards.ts); what slips through declines as an issuer would.
    if (!/^\d{12,19}$/.test(request.card.number) || !luhnValid(request.card.number)) {
      return declined('generic_decline', card);
    }
    if (isExpired(request.card.expMonth, request.card.expYear, clock()))
      return declined('expired_card', card);
    if (!cvcValid(request.card.cvc, card.brand)) return declined('incorrect_cvc', card);

    const behaviour = behaviours.get(request.card.number) ?? approve;
    switch (behaviour.kind) {
      case 'decline':
        return declined(behaviour.reason, card);
      case 'approve':
        return approved(request, card, behaviour.stored, 'frictionless');
      case 'challenge': {
        if (request.threeDSecure === 'frictionless_only') return declined('authentication_required', card);
        const challengeId = encode(challengePrefix, {
          v: 1,
          amountMinor: request.amountMinor,
          currency: request.currency,
          idempotencyKey: request.idempotencyKey,
          test: request.test,
          card,
          stored: 'approve',
        });
        return { status: 'challenge_required', challengeId, card };
      }
    }
  }

  return {
    async charge(request: ChargeRequest): Promise<ChargeResult> {
      return present(request, false);
    },

    async verify(request: ChargeRequest): Promise<ChargeResult> {
      return present({ ...request, amountMinor: 0 }, true);
    },

    async completeChallenge(challengeId: string, outcome: ChallengeOutcome): Promise<FinalChargeResult> {
      const state = readChallenge(challengeId);
      if (outcome === 'fail') return declined('authentication_failed', state.card);
      return approved(state, state.card, state.stored, 'challenge_passed');
    },

    async chargeStored(request: StoredChargeRequest): Promise<FinalChargeResult> {
      checkAmount(request.amountMinor, request.currency);
      const { card, stored } = readToken(request.cardToken);
      if (isExpired(card.expMonth, card.expYear, clock())) return declined('expired_card', card);
      if (stored === 'decline') return declined('generic_decline', card);
      // Merchant-initiated: the cardholder is absent, so 3-D Secure does not apply.
      return approved(request, card, stored, 'not_applicable');
    },

    async refund(request: RefundRequest): Promise<RefundResult> {
      checkAmount(request.amountMinor, request.currency);
      // Stateless, it cannot check the refunded total; the caller's condition on the charge does.
      if (!chargeReferencePattern.test(request.acquirerReference))
        return { status: 'failed', reason: 'unknown_charge' };
      return {
        status: 'succeeded',
        refundReference: refundPrefix + hex(request.acquirerReference, request.idempotencyKey),
      };
    },
  };
}
