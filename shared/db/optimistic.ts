/**
 * The one retry of optimistic writes. A write made on the condition that a record is still as it
 * was read (its version, a name, a balance) fails when another request changed the record first;
 * that is a lost race, not a failed request, so the write is made again from a fresh read, after a
 * short random wait that spreads the racers out. When a request loses every time it tries, it
 * answers 409 (the contract's message envelope, `concurrent_update`): DynamoDB's own exception
 * never reaches a caller.
 *
 * Every read-modify-write of a record goes through `retryOptimistic`; a condition that answers a
 * business outcome (a key already taken, a refund above what is left) is turned into its own error
 * inside the try, before the helper sees it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { Conflict } from '../core/errors.ts';
import { conditionFailedAt } from './conditions.ts';
import { dbMessages } from './messages.ts';

/** What a try answers when it found the record changed without an error (a repository's `false`). */
export const lostRace: unique symbol = Symbol('lost race');

export interface RetryOptions {
  /** How many tries before answering 409. @default 8 */
  tries?: number;
  /**
   * Whether an error a try threw means it lost a race. @default a single write's failed condition,
   * or a transaction whose first item's condition failed (callers write the record read first)
   */
  lost?: (error: unknown) => boolean;
  /** The ceiling of the random wait before the next try, doubling from 10 ms. 0: no wait. @default 500 */
  maxWaitMs?: number;
  /** The error when every try lost. @default a 409 `concurrent_update` */
  exhausted?: () => Error;
  /** Waits `ms` (tests replace it). @default a timer */
  sleep?: (ms: number) => Promise<void>;
}

/** A single write's failed condition, or a transaction whose first item's condition failed. */
export const recordChanged = (error: unknown): boolean =>
  error instanceof ConditionalCheckFailedException || conditionFailedAt(error).includes(0);

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` (given the try's number, from 1) until it answers something other than
 * `lostRace` without a lost-race error; a lost race is tried again, up to `tries` times in all.
 * Any other error goes straight to the caller.
 */
export async function retryOptimistic<T>(
  attempt: (tryNumber: number) => Promise<T | typeof lostRace>,
  options: RetryOptions = {},
): Promise<T> {
  const tries = options.tries ?? 8;
  const lost = options.lost ?? recordChanged;
  const maxWaitMs = options.maxWaitMs ?? 500;
  const sleep = options.sleep ?? timer;
  for (let tryNumber = 1; tryNumber <= tries; tryNumber++) {
    try {
      const result = await attempt(tryNumber);
      if (result !== lostRace) return result;
    } catch (error) {
      if (!lost(error)) throw error;
    }
    if (tryNumber < tries && maxWaitMs > 0) {
      await sleep(Math.random() * Math.min(maxWaitMs, 10 * 2 ** tryNumber));
    }
  }
  throw options.exhausted?.() ?? new Conflict(dbMessages.concurrent_update);
}
