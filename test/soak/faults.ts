/**
 * Random faults of the simulated acquirer, armed through the stack's control server
 * (infra/local/control.ts, README "Faults, locally") for the soak's merchant only, a few calls each,
 * at every operation: `charge`, `verify`, `completeChallenge` (checkout submits), `refund`
 * (POST /v1/refunds/ and automatic refunds) and `lookup` (recovery), which the stack's own process
 * calls, and `chargeStored` (renewals, trial ends) and `payout`, which `billing run` and
 * `payouts run` call in the CLI's process: the CLI asks the stack's registry for each call, so one
 * registry hits both. Where the faults landed is read back from the registry (`/acquirer/faults/hits`),
 * by caller: the stack, or the pid of one of the soak's CLI runs.
 */
import type {
  AcquirerFault,
  AcquirerOperation,
  FaultEffect,
  FaultHits,
} from '../../shared/acquirer/faults.ts';
import { pick, randomInt, type Weighted } from './random.ts';
import type { SoakStack } from './stack.ts';
import type { Tally } from './tally.ts';

const operations: Weighted<AcquirerOperation>[] = [
  ['charge', 24],
  ['verify', 6],
  ['completeChallenge', 10],
  ['chargeStored', 16],
  ['refund', 24],
  ['payout', 20],
  ['lookup', 14],
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

  /**
   * What each start of the stack's registry hit, by its control token: a registry lives as long as
   * its stack process, so a restarted stack counts from zero and the soak adds the starts up.
   */
  readonly #hitsByStart = new Map<string, FaultHits[]>();

  async #request(method: string, path: string, body?: unknown): Promise<unknown> {
    const info = this.#stack.info;
    if (!info?.control_url || !info.control_token) throw new Error('the stack has no control server');
    const response = await fetch(`${info.control_url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${info.control_token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(5_000),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`control ${method} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  }

  async #control(method: string, body?: unknown): Promise<AcquirerFault[]> {
    return ((await this.#request(method, '/acquirer/faults', body)) as { faults: AcquirerFault[] }).faults;
  }

  /**
   * Reads what the running stack's registry hit so far (the soak's merchant's). Called after each
   * fault armed, before the soak kills the stack and at the end: what a stack that exits by itself
   * hit since the last read is not counted.
   */
  async readHits(): Promise<void> {
    const token = this.#stack.info?.control_token;
    if (!token) return;
    try {
      const { hits } = (await this.#request('GET', '/acquirer/faults/hits')) as { hits: FaultHits[] };
      this.#hitsByStart.set(
        token,
        hits.filter((hit) => hit.merchant === this.#merchant),
      );
    } catch {
      // The stack is down (a kill): what it hit since the last read is lost with it.
    }
  }

  /**
   * The calls faults hit, by process (the stack, or which of the soak's CLI commands), operation and
   * effect: `process → "effect operation" → count`.
   */
  hitsByProcess(): Map<string, Map<string, number>> {
    const byProcess = new Map<string, Map<string, number>>();
    for (const hits of this.#hitsByStart.values())
      for (const hit of hits) {
        const pid = /^pid (\d+)$/.exec(hit.caller ?? '')?.[1];
        const command = pid === undefined ? undefined : this.#stack.cliCommands.get(Number(pid));
        const where =
          hit.caller === 'stack' ? 'stack' : command ? `CLI ${command}` : `another process (${hit.caller})`;
        const counts = byProcess.get(where) ?? new Map<string, number>();
        byProcess.set(where, counts);
        const what = `${hit.effect} ${hit.operation}`;
        counts.set(what, (counts.get(what) ?? 0) + hit.count);
      }
    return byProcess;
  }

  /** Arms one random fault, unless `maxArmed` are still waiting. A stack being killed is no error. */
  async armOne(): Promise<void> {
    await this.readHits();
    try {
      if ((await this.#control('GET')).length >= maxArmed) return;
    } catch {
      this.#tally.count('fault arm (control server)', 'no answer');
      return;
    }
    const effect = pick(effects);
    await this.arm({
      operation: pick(operations),
      effect,
      times: randomInt(1, 3),
      ...(effect === 'slow' ? { delayMs: randomInt(300, slowestMs) } : {}),
    });
  }

  /** Arms `fault` for the soak's merchant, counted. A stack being killed is no error. */
  async arm(fault: Omit<AcquirerFault, 'merchant'>): Promise<void> {
    try {
      await this.#control('POST', { ...fault, merchant: this.#merchant });
      this.#tally.count('fault arm (control server)', '200');
      this.#tally.armed(
        fault.effect,
        fault.operation,
        `${fault.effect} ${fault.operation} ×${fault.times ?? 'every call'}${fault.delayMs ? ` ${fault.delayMs} ms` : ''}`,
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
