/**
 * The outbox relay against a bus of our own (a BusPublisher, the port it sends through, not an AWS
 * client): it reports the first record the bus did not take, so the stream hands that record and
 * every one after it again, and never the records the bus took before it. A stream that re-hands
 * from the reported record therefore gets every stored event onto the bus, whatever the bus refuses.
 */
import fc from 'fast-check';
import { beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { envNames } from '../../shared/core/config.ts';
import { logger } from '../../shared/core/log.ts';
import { eventItem, internalEventWrite, newEvent, triggeredEventWrite } from '../../shared/events/event.ts';
import type { BusPublisher } from '../../shared/events/publish.ts';
import { taskEntityTag } from '../../shared/webhooks/repository.ts';
import { taskDue } from '../../shared/webhooks/task-due.ts';
import { eventRecord, sequenceOf, streamEvent, streamRecord } from '../../test/support/stream.ts';

type Relay = typeof import('./relay-events.ts').relay;
let relay: Relay;
/** The relay's warnings, kept out of the test output and read by the tests. */
let warnings: MockInstance<typeof logger.warn>;

beforeAll(async () => {
  // The module also makes the stage's handler, which names the bus; these tests never use it.
  vi.stubEnv(envNames.eventBus, 'relay-unit-test');
  ({ relay } = await import('./relay-events.ts'));
  warnings = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
});

beforeEach(() => {
  warnings.mockClear();
});

type Entry = Parameters<BusPublisher['send']>[0][number];

const stamp = new Date('2030-01-02T03:04:05.000Z');

const eventRecords = (count: number, label = 'e') =>
  Array.from({ length: count }, (_, index) => eventRecord(`evt_${label}${index}`, { at: stamp }));

const idOf = (entry: Entry) => (entry.detail as { id: string }).id;

/** A bus that answers each call with the next of `answers` (an index, or an Error to throw). */
function scriptedBus(...answers: (number | Error)[]) {
  const calls: Entry[][] = [];
  const bus: BusPublisher = {
    async send(entries) {
      calls.push([...entries]);
      const answer = answers.shift() ?? -1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { bus, calls };
}

describe('the outbox relay', () => {
  it('takes a batch the bus accepts whole: ten entries a call, in order, nothing reported', async () => {
    const records = eventRecords(25);
    const { bus, calls } = scriptedBus();
    const answer = await relay(bus)(streamEvent(records));
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(warnings).not.toHaveBeenCalled();
    expect(calls.map((call) => call.length)).toEqual([10, 10, 5]);
    expect(calls.flat().map(idOf)).toEqual(records.map((_, index) => `evt_e${index}`));
  });

  it.each([0, 3, 9])('reports the record the bus refused at index %i of the second chunk', async (k) => {
    const records = eventRecords(25);
    const { bus, calls } = scriptedBus(-1, k);
    const answer = await relay(bus)(streamEvent(records));
    // The refused record and every one after it are handed again; the first 10 + k were taken.
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: sequenceOf(records[10 + k]) }] });
    expect(calls).toHaveLength(2); // the third chunk waits for the stream to hand it again
    expect(calls[1]?.map(idOf)).toEqual(records.slice(10, 20).map((_, index) => `evt_e${10 + index}`));
    expect(warnings).toHaveBeenCalledWith(expect.stringContaining('refused'), {
      refused: 10 + k,
      records: 25,
    });
  });

  it("reports the chunk's first record when the bus cannot be reached", async () => {
    const records = eventRecords(25);
    const { bus, calls } = scriptedBus(-1, new Error('connect ECONNREFUSED'));
    const answer = await relay(bus)(streamEvent(records));
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: sequenceOf(records[10]) }] });
    expect(calls).toHaveLength(2);
    expect(warnings).toHaveBeenCalledWith(expect.stringContaining('could not be reached'), expect.anything());
  });

  it('reports the first record when the first chunk is refused from its start', async () => {
    const records = eventRecords(4);
    const { bus } = scriptedBus(0);
    const answer = await relay(bus)(streamEvent(records));
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: sequenceOf(records[0]) }] });
  });

  it('skips records that are not new outbox items, and counts chunks over the rest', async () => {
    const events = eventRecords(12);
    const others = [
      streamRecord({ pk: 'CHARGE#ch_1', sk: 'CHARGE', entity: 'charge' }),
      streamRecord({ pk: 'EVENT#evt_old', sk: 'EVENT', entity: 'event', detail: {} }, 'MODIFY'),
      streamRecord({ pk: 'EVENT#evt_gone', sk: 'EVENT', entity: 'event', detail: {} }, 'REMOVE'),
      streamRecord({ pk: 'X', sk: 'Y' }),
    ];
    // Each outbox record follows one that is not (while there are some left).
    const mixed = events.flatMap((record, index) =>
      [others[index], record].filter((one) => one !== undefined),
    );
    const { bus, calls } = scriptedBus(-1, 1);
    const answer = await relay(bus)(streamEvent(mixed));
    expect(calls.flat().map(idOf)).toEqual(events.map((_, index) => `evt_e${index}`));
    expect(calls.map((call) => call.length)).toEqual([10, 2]);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: sequenceOf(events[11]) }] });
  });

  it('puts events under their source and time, and tasks as task-due entries', async () => {
    const event = newEvent({ type: 'refund.created', developerId: 7, test: false, data: { a: 1 } }, stamp);
    const internal = newEvent(
      { type: 'subscription.cancel_requested', developerId: 7, test: true, data: {} },
      stamp,
    );
    const triggered = newEvent({ type: 'payment.succeeded', developerId: 7, test: true, data: {} }, stamp);
    const task = {
      pk: 'DEV#7#test#WEBHOOK_ENDPOINT#we_1',
      sk: 'TASK#evt_1#0',
      entity: taskEntityTag,
      created_at: stamp.toISOString(),
    };
    const records = [
      streamRecord(eventItem(event)),
      streamRecord(internalEventWrite('table', internal).Put.Item),
      streamRecord(triggeredEventWrite('table', triggered).Put.Item),
      streamRecord(task),
    ];
    const { bus, calls } = scriptedBus();
    expect(await relay(bus)(streamEvent(records))).toEqual({ batchItemFailures: [] });
    expect(calls).toEqual([
      [
        { source: 'cobro', type: 'refund.created', detail: event, time: stamp },
        { source: 'cobro.internal', type: 'subscription.cancel_requested', detail: internal, time: stamp },
        { source: 'cobro.trigger', type: 'payment.succeeded', detail: triggered, time: stamp },
        {
          source: taskDue.source,
          type: taskDue.type,
          detail: { pk: task.pk, sk: task.sk, at: task.created_at },
        },
      ],
    ]);
  });

  it('with a stream that hands again from the reported record, every record is taken and none taken before a refusal is sent again', async () => {
    // Per call, the bus refuses some entries (taking the others, a partial failure) or cannot be reached.
    const outcome = fc.oneof(
      fc.constant<'unreachable'>('unreachable'),
      fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 35 }),
        fc.array(outcome, { maxLength: 12 }),
        async (n, faults) => {
          const records = eventRecords(n, 'p');
          const taken = new Set<string>();
          /** Records taken in a call before its first refusal: these must never be sent again. */
          const settled = new Set<string>();
          const bus: BusPublisher = {
            async send(entries) {
              const ids = entries.map(idOf);
              for (const id of ids) expect(settled.has(id), `${id} was sent again`).toBe(false);
              const fault = faults.shift();
              if (fault === 'unreachable') throw new Error('unreachable');
              const refused = (fault ?? []).slice(0, ids.length);
              const first = refused.indexOf(true);
              ids.forEach((id, index) => {
                if (!refused[index]) taken.add(id);
                if (first === -1 || index < first) settled.add(id);
              });
              return first;
            },
          };
          const handler = relay(bus);
          let pending = records;
          // The stream's rule (the local reader, Lambda's mapping): hand again from the reported record.
          for (let round = 0; pending.length > 0; round++) {
            expect(round).toBeLessThan(100);
            const failures = (await handler(streamEvent(pending))).batchItemFailures;
            if (failures.length === 0) break;
            const from = pending.findIndex((record) => sequenceOf(record) === failures[0]?.itemIdentifier);
            expect(from).toBeGreaterThanOrEqual(0);
            pending = pending.slice(from);
          }
          expect([...taken].sort()).toEqual(records.map((_, index) => `evt_p${index}`).sort());
        },
      ),
    );
  });
});
