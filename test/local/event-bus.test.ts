/**
 * The local bus's fault switch (`/_local/outage`), driven through the AWS SDK as the relay drives
 * it: `fail_entries` refuses chosen entries of a PutEvents call and takes the others (a partial
 * failure), and the relay then reports the first refused record, so the stream hands it and the ones
 * after it again. The entries here match no event rule, so nothing is delivered.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type LocalEventBus, type Outage, startEventBus } from '../../infra/local/event-bus.ts';
import { envNames } from '../../shared/core/config.ts';
import { logger } from '../../shared/core/log.ts';
import { busPublisher } from '../../shared/events/publish.ts';
import { eventRecord, sequenceOf, streamEvent } from '../support/stream.ts';

const root = resolve(import.meta.dirname, '../..');
/** A detail-type no rule matches: what the bus takes goes nowhere. */
const unrouted = 'local.bus_test';

let bus: LocalEventBus;

beforeAll(async () => {
  bus = await startEventBus(0, root, { region: 'us-east-1' });
  vi.stubEnv('AWS_ENDPOINT_URL_EVENTBRIDGE', bus.url);
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  vi.stubEnv('AWS_MAX_ATTEMPTS', '1');
  vi.stubEnv(envNames.eventBus, 'local-bus-test');
  vi.spyOn(logger, 'warn').mockImplementation(() => undefined); // the relay's warnings are expected here
});

afterAll(async () => {
  await bus.close();
  vi.unstubAllEnvs();
});

beforeEach(() => {
  bus.setOutage({ down: false, fail_entries: 0, fail_detail: null });
});

async function outage(body: string | undefined, method = 'POST') {
  const answer = await fetch(`${bus.url}/_local/outage`, { method, ...(body === undefined ? {} : { body }) });
  return { status: answer.status, json: (await answer.json()) as Outage };
}

const entries = (...ids: string[]) => ids.map((id) => ({ source: 'cobro', type: unrouted, detail: { id } }));

describe('the local bus outage switch', () => {
  it('answers 400 to a body that names no setting, another field or a wrong value, and changes nothing', async () => {
    await outage('{"fail_entries": 3, "fail_detail": {"developer_id": 5}}');
    for (const body of [
      '',
      '{}',
      'not json',
      '[]',
      'true',
      '{"down": "yes"}',
      '{"down": true, "other": 1}',
      '{"fail_entries": -1}',
      '{"fail_entries": 1.5}',
      '{"fail_entries": "2"}',
      '{"fail_detail": []}',
      '{"fail_detail": {}}',
      '{"fail_detail": {"developer_id": {"nested": 1}}}',
      '{"down": true, "fail_entries": -1}',
    ]) {
      const answer = await outage(body);
      expect(answer.status, body).toBe(400);
    }
    expect((await outage(undefined, 'GET')).json).toEqual({
      down: false,
      fail_entries: 3,
      fail_detail: { developer_id: 5 },
    });
  });

  it('changes only the settings a body names, and answers those in force', async () => {
    expect((await outage('{"down": true}')).json).toEqual({ down: true, fail_entries: 0, fail_detail: null });
    expect((await outage('{"fail_entries": 2}')).json).toEqual({
      down: true,
      fail_entries: 2,
      fail_detail: null,
    });
    expect((await outage('{"fail_detail": {"id": "evt_x"}}')).json).toEqual({
      down: true,
      fail_entries: 2,
      fail_detail: { id: 'evt_x' },
    });
    expect((await outage('{"down": false}')).json).toEqual({
      down: false,
      fail_entries: 2,
      fail_detail: { id: 'evt_x' },
    });
    expect((await outage('{"fail_detail": null}')).json.fail_detail).toBeNull();
  });

  it('down refuses every call until set back, as before', async () => {
    const publisher = busPublisher();
    expect((await outage('{"down": true}')).status).toBe(200);
    await expect(publisher.send(entries('evt_a'))).rejects.toThrow();
    expect((await outage('{"down": false}')).status).toBe(200);
    expect(await publisher.send(entries('evt_a'))).toBe(-1);
  });

  it('fail_entries refuses the next N entries and takes the others of the same call', async () => {
    await outage('{"fail_entries": 2}');
    const answer = await fetch(bus.url, {
      method: 'POST',
      headers: { 'x-amz-target': 'AWSEvents.PutEvents', 'content-type': 'application/x-amz-json-1.1' },
      body: JSON.stringify({
        Entries: ['a', 'b', 'c'].map((id) => ({
          Source: 'cobro',
          DetailType: unrouted,
          Detail: `{"id":"${id}"}`,
        })),
      }),
    });
    const body = (await answer.json()) as { FailedEntryCount: number; Entries: Record<string, string>[] };
    expect(answer.status).toBe(200);
    expect(body.FailedEntryCount).toBe(2);
    expect(body.Entries.map((entry) => entry.ErrorCode ?? 'taken')).toEqual([
      'InternalFailure',
      'InternalFailure',
      'taken',
    ]);
    expect(body.Entries[2]?.EventId).toEqual(expect.any(String));
    expect((await outage(undefined, 'GET')).json.fail_entries).toBe(0);
    // Spent: the next call is taken whole.
    expect(await busPublisher().send(entries('evt_d', 'evt_e'))).toBe(-1);
  });

  it('fail_detail refuses only entries with those detail values; the SDK answer names the first', async () => {
    await outage('{"fail_entries": 1, "fail_detail": {"id": "evt_c"}}');
    const publisher = busPublisher();
    expect(await publisher.send(entries('evt_a', 'evt_b'))).toBe(-1);
    expect(await publisher.send(entries('evt_a', 'evt_b', 'evt_c', 'evt_d', 'evt_e'))).toBe(2);
    expect((await outage(undefined, 'GET')).json).toMatchObject({ fail_entries: 0 });
    expect(await publisher.send(entries('evt_c', 'evt_d', 'evt_e'))).toBe(-1);
  });
});

describe('the outbox relay on the local bus', () => {
  it('a partial failure at k of the second chunk reports that record; the stream hands it again and it goes', async () => {
    const { relay } = await import('../../functions/events/relay-events.ts');
    const handler = relay(busPublisher());
    const records = Array.from({ length: 25 }, (_, index) =>
      eventRecord(`evt_r${index}`, { type: unrouted }),
    );
    await outage('{"fail_entries": 2, "fail_detail": {"id": "evt_r13"}}');
    // Refused at index 3 of the second call of ten: records 10 to 12 were taken, 13 on are handed again.
    expect(await handler(streamEvent(records))).toEqual({
      batchItemFailures: [{ itemIdentifier: sequenceOf(records[13]) }],
    });
    expect((await outage(undefined, 'GET')).json.fail_entries).toBe(1);
    // Handed again from 13 (as the stream does): refused once more, at the first place this time.
    expect(await handler(streamEvent(records.slice(13)))).toEqual({
      batchItemFailures: [{ itemIdentifier: sequenceOf(records[13]) }],
    });
    expect(await handler(streamEvent(records.slice(13)))).toEqual({ batchItemFailures: [] });
    expect((await outage(undefined, 'GET')).json.fail_entries).toBe(0);
  });
});
