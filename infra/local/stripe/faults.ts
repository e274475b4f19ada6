/**
 * Faults of the Stripe stand-in, on the model of the simulated acquirer's (shared/acquirer/faults.ts):
 * make an operation slow, down, lost, refused or failing with a 500, for every call or the next
 * `times`, for every account or one.
 */

/**
 * - `lookup`: any GET of the API (an object, a list, a search); a GET of a Checkout Session is both
 *   `checkout_session_read` and `lookup`, the first armed fault of either hits it.
 * - `checkout_pay`: the payer's Checkout page (GET and POST /pay/…) and the control API's pay.
 */
export const standInOperations = [
  'checkout_session_create',
  'checkout_session_read',
  'checkout_session_expire',
  'payment_intent_create',
  'refund_create',
  'lookup',
  'checkout_pay',
] as const;
export type StandInOperation = (typeof standInOperations)[number];

/**
 * - `slow`: waits `delayMs`, then does the operation.
 * - `down`: answers 503 `api_error` at once, having done nothing (the answer, not a dropped socket,
 *   so stripe-node does not retry it by itself: with `maxNetworkRetries: 0` the caller sees a
 *   StripeAPIError).
 * - `lose`: does the operation (committed, its events sent), then destroys the socket unanswered:
 *   the caller sees a StripeConnectionError. stripe-node retries a reset connection once even with
 *   `maxNetworkRetries: 0`, with the same Idempotency-Key on a POST: that retry is a call too, so a
 *   fault of `times: 1` lets the retry through (it is answered the first call's result, replayed);
 *   leave `times` out or give 2 for the caller to see the loss.
 * - `refuse`: a definite refusal that moves nothing: a PaymentIntent is declined `card_declined` /
 *   `processing_error` (402), a refund fails (`status: 'failed'`), a payer's card is declined
 *   `processing_error`. Only for payment_intent_create, refund_create and checkout_pay.
 * - `error500`: answers 500 `api_error` at once, having done nothing.
 */
export const standInEffects = ['slow', 'down', 'lose', 'refuse', 'error500'] as const;
export type StandInEffect = (typeof standInEffects)[number];

/** The operations a `refuse` has a meaning for. */
export const refusable: readonly StandInOperation[] = [
  'payment_intent_create',
  'refund_create',
  'checkout_pay',
];

export interface StandInFault {
  operation: StandInOperation;
  effect: StandInEffect;
  /** For `slow`. @default 1000 */
  delayMs?: number;
  /** How many matching calls it hits, then it is spent. @default every one */
  times?: number;
  /** Only calls of this stand-in account (`acct_…`). @default every account */
  account?: string;
}

interface Armed extends StandInFault {
  left: number;
}

/** The faults armed, first match wins. */
export class StandInFaults {
  #faults: Armed[] = [];

  add(fault: StandInFault): void {
    this.#faults.push({ ...fault, left: fault.times ?? Number.POSITIVE_INFINITY });
  }

  /** Clears every fault, or those scoped to `account`. */
  clear(account?: string): void {
    this.#faults = account === undefined ? [] : this.#faults.filter((fault) => fault.account !== account);
  }

  /** The faults still armed, with how many calls each has left (null: unlimited). */
  list(): (StandInFault & { left: number | null })[] {
    return this.#faults.map((fault) => ({ ...fault, left: Number.isFinite(fault.left) ? fault.left : null }));
  }

  /** The fault hitting a call of any of `operations` by `account`, counted. */
  take(operations: readonly StandInOperation[], account: string): StandInFault | undefined {
    const index = this.#faults.findIndex(
      (fault) =>
        fault.left > 0 &&
        operations.includes(fault.operation) &&
        (fault.account === undefined || fault.account === account),
    );
    const fault = this.#faults[index];
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left <= 0) this.#faults.splice(index, 1);
    const { left: _left, ...hit } = fault;
    return hit;
  }
}
