/**
 * What the ledger soak counts and what it finds: every request's answer by kind of operation, the
 * faults armed, the deliberate kills, and the findings (answers and states that must not happen).
 */

/** A time during which failures are the soak's own doing: a deliberate kill, until the stack answers again. */
interface Disruption {
  what: string;
  from: number;
  /** When the stack answered again, plus settleMs; undefined while it lasts. */
  to: number | undefined;
}

/** A request that answers within this long after a kill ended still counts as disturbed by it. */
const settleMs = 3_000;

export interface Finding {
  title: string;
  /** Reproduction: the requests, the faults armed, what was answered. */
  detail: string[];
}

export interface Kill {
  what: 'dynamodb' | 'stack';
  at: number;
  /** How long until the stack answered /health 200 again. */
  backMs: number;
  how: string;
}

export class Tally {
  readonly started = Date.now();
  /** kind → answer label → count */
  readonly operations = new Map<string, Map<string, number>>();
  readonly faultsByEffect = new Map<string, number>();
  readonly faultsByOperation = new Map<string, number>();
  readonly findings: Finding[] = [];
  readonly kills: Kill[] = [];
  readonly #disruptions: Disruption[] = [];
  /** Every fault armed, with when, for the reproductions of findings. */
  readonly #armed: { at: number; fault: string }[] = [];

  count(kind: string, label: string): void {
    const labels = this.operations.get(kind) ?? new Map<string, number>();
    this.operations.set(kind, labels);
    labels.set(label, (labels.get(label) ?? 0) + 1);
  }

  totalOperations(): number {
    let total = 0;
    for (const labels of this.operations.values()) for (const n of labels.values()) total += n;
    return total;
  }

  armed(effect: string, operation: string, fault: string): void {
    this.faultsByEffect.set(effect, (this.faultsByEffect.get(effect) ?? 0) + 1);
    this.faultsByOperation.set(operation, (this.faultsByOperation.get(operation) ?? 0) + 1);
    this.#armed.push({ at: Date.now(), fault });
  }

  /** The faults armed in the 30 s before `start` and until `end`: those a request may have met. */
  faultsAround(start: number, end: number): string[] {
    return this.#armed
      .filter((armed) => armed.at >= start - 30_000 && armed.at <= end)
      .map((armed) => `${this.at(armed.at)} ${armed.fault}`);
  }

  /** Starts a disruption; the function it answers ends it (once the stack answers again). */
  disrupt(what: string): () => void {
    const disruption: Disruption = { what, from: Date.now(), to: undefined };
    this.#disruptions.push(disruption);
    return () => {
      disruption.to = Date.now() + settleMs;
    };
  }

  /** The disruption a request that ran from `start` to `end` overlapped, if any. */
  disruptedBy(start: number, end: number): string | undefined {
    return this.#disruptions.find((d) => start <= (d.to ?? Number.POSITIVE_INFINITY) && end >= d.from)?.what;
  }

  find(finding: Finding): void {
    this.findings.push(finding);
    console.log(`  finding at ${this.at(Date.now())}: ${finding.title}`);
  }

  /** A time as seconds since the soak started: `+12.3 s`. */
  at(time: number): string {
    return `+${((time - this.started) / 1000).toFixed(1)} s`;
  }
}
