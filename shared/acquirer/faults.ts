/**
 * Faults of the simulated acquirer, for tests and the ledger soak (docs/design.md#acquirer): make it
 * slow, make it refuse, or make it lose its answer, at a chosen operation. The registry is a value of
 * this process that only the local stack's control server (infra/local/control.ts) fills; nothing in
 * a deployed function writes to it, so a deployed stage never sees a fault. Other processes working
 * on a local stack ask its registry (remoteFaults).
 */

/** The acquirer operations a fault can hit. */
export const acquirerOperations = [
  'charge',
  'verify',
  'completeChallenge',
  'chargeStored',
  'refund',
  'payout',
  'lookup',
] as const;
export type AcquirerOperation = (typeof acquirerOperations)[number];

/**
 * - `slow`: waits `delayMs`, then does the operation.
 * - `refuse`: a definite refusal that moves no money (a charge declines `processing_error`, a refund
 *   or payout fails `refused`); recorded in the acquirer's books as such.
 * - `lose`: does the operation (money moves, the books record it), then throws AcquirerUnavailable
 *   as a timed-out call would: the caller never learns the outcome.
 * - `down`: throws AcquirerUnavailable before doing anything (the acquirer was unreachable).
 */
export const faultEffects = ['slow', 'refuse', 'lose', 'down'] as const;
export type FaultEffect = (typeof faultEffects)[number];

export interface AcquirerFault {
  operation: AcquirerOperation;
  effect: FaultEffect;
  /** For `slow`. @default 1000 */
  delayMs?: number;
  /** Only calls for this merchant (developer id). @default every merchant */
  merchant?: number;
  /** How many matching calls it hits, then it is spent. @default every one */
  times?: number;
}

/** Where the simulated acquirer asks whether a call is hit by a fault. */
export interface FaultSource {
  /** The fault hitting this call, if any (a fault with `times` counts the call). */
  take(
    operation: AcquirerOperation,
    merchant: number,
  ): AcquirerFault | undefined | Promise<AcquirerFault | undefined>;
}

interface Armed extends AcquirerFault {
  left: number;
}

/** How many calls a fault hit, by who made them: what a soak or a test reads to see where faults landed. */
export interface FaultHits {
  /** Who asked: null for this process's own calls; another process names itself (remoteFaults). */
  caller: string | null;
  operation: AcquirerOperation;
  effect: FaultEffect;
  merchant: number;
  count: number;
}

/** A set of faults, first match wins. */
export class FaultRegistry implements FaultSource {
  #faults: Armed[] = [];
  // Kept apart from the faults: clearing them disarms what is left, it does not undo what was hit.
  #hits = new Map<string, FaultHits>();

  /** Replaces every fault with `faults`. */
  set(faults: readonly AcquirerFault[]): void {
    this.#faults = faults.map((fault) => ({ ...fault, left: fault.times ?? Number.POSITIVE_INFINITY }));
  }

  /** Adds one fault after those already set. */
  add(fault: AcquirerFault): void {
    this.#faults.push({ ...fault, left: fault.times ?? Number.POSITIVE_INFINITY });
  }

  /** Clears every fault, or those of one merchant. */
  clear(merchant?: number): void {
    this.#faults = merchant === undefined ? [] : this.#faults.filter((fault) => fault.merchant !== merchant);
  }

  /** The faults still armed. */
  list(): AcquirerFault[] {
    return this.#faults.map(({ left: _left, ...fault }) => fault);
  }

  /** The calls hit so far, counted by caller, operation, effect and merchant. */
  hits(): FaultHits[] {
    return [...this.#hits.values()].map((hits) => ({ ...hits }));
  }

  /** `caller` names another process asking through the control server; this process's calls give none. */
  take(
    operation: AcquirerOperation,
    merchant: number,
    caller: string | null = null,
  ): AcquirerFault | undefined {
    const index = this.#faults.findIndex(
      (fault) =>
        fault.left > 0 &&
        fault.operation === operation &&
        (fault.merchant === undefined || fault.merchant === merchant),
    );
    const fault = this.#faults[index];
    if (!fault) return undefined;
    fault.left -= 1;
    if (fault.left <= 0) this.#faults.splice(index, 1);
    const { left: _left, ...hit } = fault;
    const key = JSON.stringify([caller, operation, hit.effect, merchant]);
    const counted = this.#hits.get(key) ?? { caller, operation, effect: hit.effect, merchant, count: 0 };
    counted.count += 1;
    this.#hits.set(key, counted);
    return hit;
  }
}

/**
 * The registry of this process. Empty unless the local stack's control server fills it (the local
 * stack runs the handlers in its own process); in Lambda it stays empty.
 */
export const processFaults = new FaultRegistry();

/**
 * The faults of another process, asked for each call: the local stack's registry, through its
 * control server, for whatever calls the acquirer apart from it (rehearsal mode runs each function
 * in a worker of its own; the operator CLI's `billing run`, `payouts run` and `reconcile` run in
 * the CLI's process). One registry then counts every call, as it does when they share its process.
 * Only the local stack gives a function these variables, and the CLI takes them from a local
 * stack's local.json; a deployed function or a CLI run against a deployed table never has them.
 * `caller` is how the registry counts this process's hits (a function's name, or `pid N`).
 */
export function remoteFaults(url: string, token: string, caller: string): FaultSource {
  return {
    async take(operation, merchant) {
      const answer = await fetch(`${url}/acquirer/faults/take`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ operation, merchant, caller }),
        // A stack that stopped answering fails the call at once, before the acquirer is asked.
        signal: AbortSignal.timeout(5_000),
      });
      if (answer.status !== 200) throw new Error(`the fault registry answered ${answer.status}`);
      return ((await answer.json()) as { fault: AcquirerFault | null }).fault ?? undefined;
    },
  };
}
