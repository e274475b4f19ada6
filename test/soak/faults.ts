/**
 * Random faults of the simulated acquirer, armed through the stack's control server
 * (infra/local/control.ts, README "Faults, locally") for the soak's merchant only, a few calls each.
 *
 * Only operations the stack's own process calls are armed: `charge`, `verify`, `completeChallenge`
 * (checkout submits), `refund` (POST /v1/refunds/ and automatic refunds) and `lookup` (recovery). The
 * registry lives in the stack's process; `chargeStored` (renewals) and `payout` are called by
 * `billing run` and `payouts run` in the CLI's own process, which no fault reaches.
 */
import type { AcquirerFault, AcquirerOperation, FaultEffect } from '../../shared/acquirer/faults.ts';
import { pick, randomInt, type Weighted } from './random.ts';
import type { SoakStack } from './stack.ts';
import type { Tally } from './tally.ts';

const operations: Weighted<AcquirerOperation>[] = [
  ['charge', 30],
  ['verify', 8],
  ['completeChallenge', 12],
  ['refund', 30],
  ['lookup', 20],
];

const effects: Weighted<FaultEffect>[] = [
  ['slow', 1],
  ['refuse', 1],
  ['down', 1],
  ['lose', 1],
];

/** No more than this many armed at once: an unspent fault waits for its operation. */
const maxArmed = 4;

/** A slow call stays well under the 10 s a handler may run (a handler that times out answers 500). */
const slowestMs = 4_000;

export class Faults {
  readonly #stack: SoakStack;
  readonly #tally: Tally;
  readonly #merchant: number;

  constructor(stack: SoakStack, tally: Tally, merchant: number) {
    this.#stack = stack;
    this.#tally = tally;
    this.#merchant = merchant;
  }

  async #control(method: string, body?: unknown): Promise<AcquirerFault[]> {
    const info = this.#stack.info;
    if (!info?.control_url || !info.control_token) throw new Error('the stack has no control server');
    const response = await fetch(`${info.control_url}/acquirer/faults`, {
      method,
      headers: { Authorization: `Bearer ${info.control_token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(5_000),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`control ${method} answered ${response.status}: ${text}`);
    return (JSON.parse(text) as { faults: AcquirerFault[] }).faults;
  }

  /** Arms one random fault, unless `maxArmed` are still waiting. A stack being killed is no error. */
  async armOne(): Promise<void> {
    try {
      if ((await this.#control('GET')).length >= maxArmed) return;
      const effect = pick(effects);
      const fault: AcquirerFault = {
        operation: pick(operations),
        effect,
        merchant: this.#merchant,
        times: randomInt(1, 3),
        ...(effect === 'slow' ? { delayMs: randomInt(300, slowestMs) } : {}),
      };
      await this.#control('POST', fault);
      this.#tally.count('fault arm (control server)', '200');
      this.#tally.armed(
        fault.effect,
        fault.operation,
        `${fault.effect} ${fault.operation} ×${fault.times}${fault.delayMs ? ` ${fault.delayMs} ms` : ''}`,
      );
    } catch {
      // The control server goes with its stack: a kill of ours, or the stack not up yet.
      this.#tally.count('fault arm (control server)', 'no answer');
    }
  }

  /** Disarms every fault (the registry is the stack's, and empty after each start anyway). */
  async clear(): Promise<void> {
    await this.#control('DELETE');
  }
}
