/**
 * When the local stack's event pipeline (the table's stream → the outbox relay → the bus → the
 * rules' targets, which may store more events and tasks in turn) has done everything it had to do.
 * Tests on the shared stack ask it, through the control server, before they assert that nothing more
 * arrived. The timed schedules (the retry sweep, recovery) are not part of it: what they will do
 * later is due later.
 */
import type { LocalEventBus } from './event-bus.ts';
import type { StreamReader } from './streams.ts';

export interface LocalPipeline {
  reader: Pick<StreamReader, 'caughtUp' | 'relayed' | 'failures'>;
  bus: Pick<LocalEventBus, 'settled' | 'inFlight'>;
}

/** What the pipeline has done so far (`GET /pipeline` on the control server). */
export interface PipelineState {
  /** Outbox records the relay put on the bus. */
  relayed: number;
  /** Relay calls the bus refused or could not take. */
  relay_failures: number;
  /** Deliveries of the bus running now. */
  deliveries_in_flight: number;
}

export const pipelineState = ({ reader, bus }: LocalPipeline): PipelineState => ({
  relayed: reader.relayed(),
  relay_failures: reader.failures(),
  deliveries_in_flight: bus.inFlight(),
});

/** `promise`, or its rejection with the signal's reason once `signal` aborts (a delivery may run 30 s). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  return Promise.race([promise, aborted]);
}

/**
 * Resolves once everything stored before the call has gone through the pipeline, with everything
 * that caused in turn: of every account, or, when `developerId` is given, of that account (whose
 * events and tasks stay its own), so other accounts' traffic on a shared stack does not hold it up.
 * Answers the rounds it took.
 *
 * Each round takes, at one instant, the count of the account's records relayed and the bus's
 * deliveries running; waits for those deliveries (a record is counted only once the bus took it, so
 * the deliveries of every record counted are among them, or finished); then waits for the reader to
 * relay every record stored meanwhile (whatever those deliveries stored is among them). A round that
 * relayed no record of the account leaves nothing of it on the way: the pipeline is drained for it.
 */
export async function drainPipeline(
  { reader, bus }: LocalPipeline,
  options: { developerId?: number; maxRounds?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const { developerId, maxRounds = 50, signal } = options;
  await reader.caughtUp(signal);
  for (let round = 1; round <= maxRounds; round++) {
    const relayed = reader.relayed(developerId);
    await untilAborted(bus.settled(), signal);
    await reader.caughtUp(signal);
    if (reader.relayed(developerId) === relayed) return round;
  }
  throw new Error(`the event pipeline kept relaying new records for ${maxRounds} rounds`);
}
