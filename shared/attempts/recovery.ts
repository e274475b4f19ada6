/**
 * Recovery (docs/design.md#recovery): finishes the attempts whose outcome nobody recorded, because
 * their call ended without an answer (a time-out, the acquirer unreachable) or the function making it
 * stopped (a crash, a time-out of its own). It takes every attempt whose `recover_at` has come from
 * the recovery index, leases it, and hands it to the finisher of its kind, which asks the acquirer by
 * the attempt's key and records what it finds, as the original call would have: an approval once, a
 * decline, or (nothing found: the key is then closed at the acquirer) a failure that frees what the
 * attempt held. The areas provide the finishers; the top of the code assembles them
 * (shared/ledger/recovery.ts). Deployed it runs every minute, locally every two seconds.
 */
import type { Acquirer, FoundCharge } from '../acquirer/acquirer.ts';
import { eachInLanes } from '../core/lanes.ts';
import { logger } from '../core/log.ts';
import type { Deps } from '../db/deps.ts';
import type { RunPart } from '../db/due.ts';
import { type Attempt, type AttemptKind, lookupHintsOf } from './attempt.ts';
import { dueAttempts, leaseWrite, moveAttempt } from './repository.ts';

/**
 * What a finisher made of an attempt: recorded (`succeeded`, `declined`, `failed`), or `waiting`
 * when the acquirer has no final answer yet (a challenge the cardholder may still answer).
 */
export type Finished = 'succeeded' | 'declined' | 'failed' | 'waiting';

/** Finishes one attempt of its kind from what the acquirer knows of its key. */
export type AttemptFinisher = (attempt: Attempt, now: Date) => Promise<Finished>;

export type Finishers = { readonly [K in AttemptKind]: AttemptFinisher };

/**
 * The finisher of a kind of charge attempt: what the acquirer has under the attempt's key, a
 * challenge still open closed first (`abandon`: recovery takes an attempt only once its window is
 * past), handed to `settle`, which records it and names the outcome. A charge still waiting for a
 * challenge after all is left `waiting`.
 */
export const chargeFinisher =
  <K extends AttemptKind>(
    acquirer: Acquirer,
    settle: (
      attempt: Attempt<K>,
      found: Exclude<FoundCharge, { status: 'challenge_required' }>,
      now: Date,
    ) => Promise<Finished>,
  ): AttemptFinisher =>
  async (attempt, now) => {
    const found = await acquirer.findCharge(attempt.acquirer_key, attempt.mode === 'test', {
      ...lookupHintsOf(attempt),
      abandon: true,
    });
    if (found.status === 'challenge_required') return 'waiting';
    return settle(attempt as Attempt<K>, found, now);
  };

export interface RecoverySummary {
  now: string;
  /** Attempts whose recovery time had come. */
  due: number;
  succeeded: number;
  declined: number;
  failed: number;
  waiting: number;
  /** Taken by another recovery meanwhile. */
  raced: number;
  /** The finisher threw: logged with the attempt id, taken again once its lease ends. */
  errors: number;
}

/** How long a recovery holds an attempt it took. */
export const recoveryLeaseMs = 60_000;
const pageLimit = 500;
const lanes = 8;

/**
 * Finishes every attempt due at `now`, in every partition of the recovery index or in `part.shard`
 * alone (a scheduled worker's), taking no new one once `part.stop` answers true (the rest stays due).
 */
export async function recoverAttempts(
  deps: Deps,
  finishers: Finishers,
  now: Date,
  part: RunPart = {},
): Promise<RecoverySummary> {
  const stop = part.stop ?? (() => false);
  const summary: RecoverySummary = {
    now: now.toISOString(),
    due: 0,
    succeeded: 0,
    declined: 0,
    failed: 0,
    waiting: 0,
    raced: 0,
    errors: 0,
  };
  const seen = new Set<string>();
  for (;;) {
    // Each taken attempt moves past `now` in the index, so the next read finds only the rest.
    const due = (await dueAttempts(deps, now, pageLimit, part.shard)).filter(
      (attempt) => !seen.has(attempt.id),
    );
    if (due.length === 0 || stop()) return summary;
    await eachInLanes(due, lanes, async (attempt) => {
      if (stop()) return;
      summary.due += 1;
      seen.add(attempt.id);
      const until = new Date(now.getTime() + recoveryLeaseMs);
      if (!(await moveAttempt(deps, leaseWrite(deps.table, attempt, now, until)))) {
        summary.raced += 1;
        return;
      }
      try {
        summary[await finishers[attempt.kind](attempt, now)] += 1;
      } catch (error) {
        summary.errors += 1;
        logger.error('recovery could not finish an attempt', {
          attempt_id: attempt.id,
          kind: attempt.kind,
          error: error as Error,
        });
      }
    });
  }
}
