/**
 * The acquirer port (docs/design.md#acquirer): what cobro asks of whoever moves the money. Each
 * account's mode is connected to one connector (docs/design.md#connectors): the simulated acquirer
 * (simulated.ts, test cards, no real money), or a real acquirer's adapter (Stripe: stripe.ts) behind
 * the same interface; connected.ts picks the connector per call. Raw card data crosses this port
 * inward only, and only to a connector whose card entry is cobro's own form: no result carries a
 * card number or CVC, so whatever a caller stores or logs from a result is safe.
 *
 * Every call that moves money carries an idempotency key that cobro derives from a durable attempt
 * it stored first (shared/attempts). A call may end without a definite answer (it timed out, the
 * acquirer could not be reached): the method then throws AcquirerUnavailable, and cobro asks again
 * later by key (`findCharge`, `findRefund`, `findPayout`) instead of calling with a new key.
 */

/** The connectors an account's mode can be connected to. */
export const connectorNames = ['simulated', 'stripe'] as const;
export type ConnectorName = (typeof connectorNames)[number];

/**
 * How a connector takes a card from a cardholder at the hosted checkout: cobro's own card form
 * (`form`: the card crosses cobro, fine for test cards only), or the acquirer's own page
 * (`redirect`: the payer is sent there and back, and no card data ever reaches cobro).
 */
export type CardEntry = 'form' | 'redirect';

/** A card token saved by the Stripe connector starts so (stripe.ts); any other is the simulated acquirer's. */
export const stripeTokenPrefix = 'stripe:';

/** The connector holding a saved card: the one its renewals must be charged through. */
export const connectorOfToken = (cardToken: string): ConnectorName =>
  cardToken.startsWith(stripeTokenPrefix) ? 'stripe' : 'simulated';

/**
 * The Stripe account holding a card saved with Stripe (`stripe:<customer>:<method>:<account>`), when
 * its token names one (tokens made before it was kept do not).
 */
export const stripeAccountOfToken = (cardToken: string): string | undefined =>
  cardToken.startsWith(stripeTokenPrefix) ? cardToken.split(':')[3] || undefined : undefined;

/** Card networks cobro recognises from the number's prefix. */
export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'jcb' | 'unionpay' | 'unknown';

/**
 * A card as the cardholder typed it, normalised (see cards.ts `validateCard`). Lives only in memory
 * for the one request that charges it: never stored, logged or returned.
 */
export interface CardInput {
  /** Digits only, 12 to 19 of them. */
  number: string;
  /** 1 to 12. */
  expMonth: number;
  /** Four digits. */
  expYear: number;
  /** 3 or 4 digits. */
  cvc: string;
  holderName: string;
}

/** What may be kept and shown of a card: never the number, the CVC or anything they can be rebuilt from. */
export interface CardSummary {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  /** ISO 3166-1 alpha-2 country of the issuer, as the acquirer reports it. */
  country: string;
}

/**
 * How a card-present charge may authenticate the cardholder with 3-D Secure. Every charge with the
 * card in hand asks for it; the difference is whether the cardholder can be shown a challenge.
 * - `challenge_allowed`: the cardholder is at a page that can show the issuer's challenge (hosted
 *   checkout); a card that needs one answers `challenge_required`.
 * - `frictionless_only`: nobody can answer a challenge (the legacy direct charge); a card that
 *   needs one is declined `authentication_required`.
 * Renewals do not pass through here: they are merchant-initiated charges of a stored card
 * (`chargeStored`), exempt from 3-D Secure.
 */
export type ThreeDSecureMode = 'challenge_allowed' | 'frictionless_only';

/** How a charge's cardholder authentication went. */
export type ThreeDSecureOutcome = 'frictionless' | 'challenge_passed' | 'not_applicable';

export const declineReasons = [
  'generic_decline',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'authentication_required',
  'authentication_failed',
  /** The acquirer answered an error and charged nothing (test card 4000 0000 0000 0119). */
  'processing_error',
] as const;
export type DeclineReason = (typeof declineReasons)[number];

interface ChargeBasics {
  /** Positive integer of the currency's minor units: no float ever holds an amount. */
  amountMinor: number;
  /** ISO 4217 code, upper case, one of the currency table's. */
  currency: string;
  description: string;
  /** What the cardholder's statement shows; the acquirer's account default when absent. */
  statementDescriptor?: string;
  /**
   * The same key always means the same charge: a retry after a timeout answers the first outcome
   * instead of charging twice. Unique per attempt (for example per checkout submit or renewal period).
   */
  idempotencyKey: string;
  /** Test mode: no real money moves. */
  test: boolean;
  /** The cobro account the money belongs to (its developer id): the acquirer's books name it. */
  merchant: number;
}

/** A charge of a card the cardholder has just typed in. */
export interface ChargeRequest extends ChargeBasics {
  card: CardInput;
  threeDSecure: ThreeDSecureMode;
}

/** A merchant-initiated charge of a card saved at an earlier approval (renewals). */
export interface StoredChargeRequest extends ChargeBasics {
  /** The `cardToken` of an earlier approval of the card. */
  cardToken: string;
}

export interface ApprovedCharge {
  status: 'approved';
  /** The acquirer's id of the charge, for refunds and reconciliation. */
  acquirerReference: string;
  card: CardSummary;
  threeDSecure: ThreeDSecureOutcome;
  /** Charges the card again later without the cardholder (`chargeStored`); not the card number. */
  cardToken: string;
  /** The connector that approved it (set by the routing of connected.ts; absent: simulated). */
  connector?: ConnectorName;
  /** For a connector of several accounts (Stripe): the acquirer account it was made in. */
  connectorAccount?: string;
  /**
   * Who paid, as the acquirer's own page asked them (a redirect connector: cobro's page never saw
   * the payer's e-mail or name); absent when cobro's form asked.
   */
  payer?: { email: string; name: string };
}

export interface DeclinedCharge {
  status: 'declined';
  declineReason: DeclineReason;
  card: CardSummary;
}

export interface ChallengeRequired {
  status: 'challenge_required';
  /** Opaque; the caller keeps it server-side and hands it back to `completeChallenge`. */
  challengeId: string;
  card: CardSummary;
}

export type ChargeResult = ApprovedCharge | DeclinedCharge | ChallengeRequired;

/**
 * A checkout handed to the acquirer's own page (a connector whose card entry is `redirect`): the
 * payer is sent to `url` and comes back to the return URL. Waiting there is a challenge like 3-D
 * Secure's: `challengeId` names it, the attempt waits for it, and `readRedirect` (or a lookup with
 * the id) learns how it went.
 */
export interface RedirectRequired {
  status: 'redirect';
  challengeId: string;
  url: string;
  /** The acquirer account the page belongs to (set by the routing of connected.ts). */
  account?: string;
}

/** A checkout on the acquirer's own page: charge the card, or only save it (a trial, a new card). */
export interface RedirectRequest {
  /** What is charged now; for `save_card`, the amount later charges will be (shown, not charged). */
  amountMinor: number;
  currency: string;
  description: string;
  statementDescriptor?: string;
  purpose: 'charge' | 'save_card';
  /** Keep the card for charges without the cardholder (subscriptions, recurring links). */
  saveCard: boolean;
  /** The attempt's key: the acquirer's idempotency key and, in its metadata, how a lookup finds it. */
  idempotencyKey: string;
  /** The attempt's id, in the acquirer's metadata so its own dashboard names cobro's record. */
  attemptId: string;
  /** The payer's e-mail when cobro knows it (a subscription made for a customer). */
  customerEmail: string | null;
  /** Where the payer comes back after paying (the connector adds how to name its session). */
  returnUrl: string;
  /** Where the payer goes back without paying. */
  cancelUrl: string;
  /** When the acquirer's page stops taking a payment: after it a lookup is final. */
  expiresAt: Date;
  lang: 'en' | 'es';
  test: boolean;
  merchant: number;
}

/** How a charge ends once nothing more is asked of the cardholder. */
export type FinalChargeResult = ApprovedCharge | DeclinedCharge;

/** What the cardholder did on the challenge page. */
export type ChallengeOutcome = 'pass' | 'fail';

export interface RefundRequest {
  /** The `acquirerReference` of the approved charge. */
  acquirerReference: string;
  /**
   * The connector that made the charge (absent: the simulated acquirer, as every charge made before
   * connectors was): a refund goes to it whatever the account's mode is connected to now.
   */
  connector?: ConnectorName;
  /** For a connector of several accounts (Stripe): the account that made the charge. */
  connectorAccount?: string;
  /** Positive integer of minor units; the caller keeps the refunded total within the charge. */
  amountMinor: number;
  currency: string;
  /** As for charges: a retry of the same refund answers the first outcome. */
  idempotencyKey: string;
  test: boolean;
  merchant: number;
}

/**
 * A definite refusal (`failed`) moved no money: `refused` by the acquirer (test card 4000 0000 0000
 * 5126), a charge it never made, or more than the charge has left.
 */
export type RefundResult =
  | { status: 'succeeded'; refundReference: string }
  | { status: 'failed'; reason: 'unknown_charge' | 'refused' | 'exceeds_charge' };

/**
 * The merchant's share of an approved charge sent to the merchant's bank account
 * (docs/design.md#payouts).
 */
export interface PayoutRequest {
  /** The `acquirerReference` of the charge paid out. */
  acquirerReference: string;
  /** Positive integer of minor units: the charge's net less its refunds. */
  amountMinor: number;
  currency: string;
  idempotencyKey: string;
  test: boolean;
  merchant: number;
}

export type PayoutResult =
  | { status: 'paid'; payoutReference: string }
  | { status: 'failed'; reason: 'unknown_charge' | 'refused' };

/** What a lookup by key finds: the call's outcome, or `not_found` (final: see Acquirer.findCharge). */
export type NotFound = { status: 'not_found' };

/**
 * What a lookup may be told besides the key, for a connector that finds a call by other means than
 * its own idempotency store (Stripe finds a payment by the attempt in its metadata, and a waiting
 * checkout by its session): whose it was, and what cobro stored of it.
 */
export interface LookupHints {
  /** Close a challenge (or an acquirer's checkout page) still waiting, then answer. */
  abandon?: boolean;
  /** The cobro account (developer id) the call was made for. */
  merchant?: number;
  /** The challenge or redirect the attempt waits for, when it waits for one. */
  challengeId?: string;
  /** For a refund or payout: the reference of the charge it moves money on. */
  chargeReference?: string;
  /** The connector that took the call (absent: the simulated acquirer). */
  connector?: ConnectorName;
  /** For a connector of several accounts (Stripe): the account that took it, when known. */
  connectorAccount?: string;
  /** For a charge of a saved card: the card's token (a Stripe connector reads its customer's payments). */
  cardToken?: string;
  /** When the call's try was made (ISO 8601): a connector whose lookups lag does not call "none" too early. */
  madeAt?: string;
}

/** A charge (or card check) looked up by its key; a charge still waiting for its challenge says so. */
export type FoundCharge =
  | ((ApprovedCharge | DeclinedCharge) & { amountMinor: number; currency: string })
  | { status: 'challenge_required'; challengeId: string; card: CardSummary }
  | NotFound;

/** Money that moved, as the acquirer's own books have it: what reconciliation compares. */
export interface LedgerEntry {
  kind: 'charge' | 'refund' | 'payout';
  /** The idempotency key the money moved under. */
  idempotencyKey: string;
  /** The acquirer's reference of this movement (a charge's, a refund's, a payout's). */
  reference: string;
  /** For refunds and payouts: the charge they belong to. */
  chargeReference: string | null;
  /** The connector whose books hold it (absent: the simulated acquirer's). */
  connector?: ConnectorName;
  amountMinor: number;
  currency: string;
  merchant: number;
  test: boolean;
  /** ISO 8601 UTC, when the acquirer recorded it. */
  at: string;
}

/**
 * A payout an acquirer made on its own schedule (Stripe's), and the charges it settled, each by the
 * key of the attempt that made it and the net paid out of it: what reconciliation holds cobro's
 * record of the payout against.
 */
export interface Settlement {
  payoutReference: string;
  /** ISO 8601 UTC, when it reached the merchant's bank. */
  paidAt: string;
  merchant: number;
  test: boolean;
  settled: { idempotencyKey: string; netMinor: number }[];
}

/**
 * The acquirer could not give a definite answer (the call timed out, the acquirer was unreachable,
 * or the key was closed by a lookup that found nothing): the outcome is unknown to the caller, who
 * must not try again with a new key, only look the key up later.
 */
export class AcquirerUnavailable extends Error {
  override readonly name = 'AcquirerUnavailable';
}

/**
 * The mode of an account is connected to no acquirer (docs/design.md#connectors): nothing that
 * moves or promises money may run in it. `connector` names one whose connection was removed while
 * its calls were still to be finished (recovery cannot ask it until it is connected again).
 */
export class NotConnected extends Error {
  override readonly name = 'NotConnected';
  readonly merchant: number;
  readonly test: boolean;
  constructor(merchant: number, test: boolean, detail = 'not connected to an acquirer') {
    super(`account ${merchant} ${test ? 'test' : 'live'} mode: ${detail}`);
    this.merchant = merchant;
    this.test = test;
  }
}

/**
 * A card typed into cobro's own form was sent to a connector whose checkout is its own page (a
 * page made before the mode was connected to it): nothing was asked of the acquirer.
 */
export class CardEntryRefused extends Error {
  override readonly name = 'CardEntryRefused';
}

/** The port. Every method may do network I/O in a real adapter, hence the promises. */
export interface Acquirer {
  /** How the hosted checkout takes a card through this connector (see CardEntry). */
  readonly cardEntry?: CardEntry;
  /**
   * A connector whose card entry is `redirect`: opens the acquirer's own page for a checkout, under
   * the attempt's key. Nothing is charged yet; `readRedirect` learns what the payer did there.
   */
  beginRedirect?(request: RedirectRequest): Promise<RedirectRequired>;
  /**
   * What became of a checkout on the acquirer's page, read back from the acquirer (never from the
   * redirect that brought the payer back): approved or declined, still waiting for the payer
   * (`challenge_required`), or closed with nothing paid (`not_found`).
   */
  readRedirect?(challengeId: string, test: boolean, merchant: number): Promise<FoundCharge>;
  /** Charges a card the cardholder typed in; may ask for a 3-D Secure challenge first. */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /**
   * Finishes a charge that asked for a challenge: approved when the cardholder passed it, declined
   * `authentication_failed` when they failed. `outcome` is what the challenge page reported; a real
   * adapter asks the issuer's result instead. Completing the same challenge again with the same
   * outcome answers the same result without charging twice (the charge's idempotency key holds).
   */
  completeChallenge(challengeId: string, outcome: ChallengeOutcome): Promise<FinalChargeResult>;
  /**
   * Checks a card the cardholder typed in without charging it (a subscription's trial): an
   * approval carries the token later charges use. It may ask for a 3-D Secure challenge, finished
   * with `completeChallenge` like a charge's. `amountMinor` is ignored (nothing is charged).
   */
  verify(request: ChargeRequest): Promise<ChargeResult>;
  /** Charges a saved card without the cardholder present (renewals). */
  chargeStored(request: StoredChargeRequest): Promise<FinalChargeResult>;
  /** Gives back part or all of an approved charge. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Sends the merchant's share of a charge to the merchant. */
  payout(request: PayoutRequest): Promise<PayoutResult>;
  /**
   * The charge (or card check) made under `idempotencyKey`. Finding nothing closes the key: a call
   * with it arriving later is refused (AcquirerUnavailable), so `not_found` is final and the caller
   * may close its attempt. A key whose challenge is still unanswered is answered as such, and
   * `abandon` true closes it too (the challenge can no longer be completed): then `not_found`.
   */
  findCharge(idempotencyKey: string, test: boolean, hints?: LookupHints): Promise<FoundCharge>;
  /** The refund made under `idempotencyKey`; finding nothing closes the key, as for charges. */
  findRefund(idempotencyKey: string, test: boolean, hints?: LookupHints): Promise<RefundResult | NotFound>;
  /** The payout made under `idempotencyKey`; finding nothing closes the key, as for charges. */
  findPayout(idempotencyKey: string, test: boolean, hints?: LookupHints): Promise<PayoutResult | NotFound>;
  /** The money that moved between `since` and `until` (approved charges, refunds, payouts), oldest first. */
  ledger(range: { since: Date; until: Date }): AsyncIterable<LedgerEntry>;
  /** An acquirer that pays out on its own: its payouts made between `since` and `until`. */
  settlements?(range: { since: Date; until: Date }): AsyncIterable<Settlement>;
}
