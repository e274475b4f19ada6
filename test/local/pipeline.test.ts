/**
 * The event pipeline's drain (infra/local/pipeline.ts), which tests wait on before asserting that
 * nothing more arrived: first its rounds against a pipeline of the test's own, then the control
 * server's `POST /pipeline/drain` on the shared stack, through the whole way to a slow receiver.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { drainPipeline, type LocalPipeline } from '../../infra/local/pipeline.ts';
import { payThroughCheckout } from '../support/checkout.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { api, apiKey, localInfo, newAccount } from '../support/stack.ts';

/**
 * A pipeline in memory: records stored for an account wait in a stream until the reader relays
 * them; each relayed record starts a delivery on the bus, which ends after a turn of the event loop
 * and then stores what `next` says the record causes.
 */
function memoryPipeline(next: (record: Stored) => Stored[]) {
  const stream: Stored[] = [];
  const relayedBy = new Map<number, number>();
  const pending = new Set<Promise<void>>();
  const delivered: Stored[] = [];
  const relay = () => {
    for (const record of stream.splice(0)) {
      relayedBy.set(record.owner, (relayedBy.get(record.owner) ?? 0) + 1);
      const delivery = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        delivered.push(record);
        stream.push(...next(record));
      });
      pending.add(delivery);
      void delivery.finally(() => pending.delete(delivery));
    }
  };
  const pipeline: LocalPipeline = {
    reader: {
      caughtUp: async () => relay(),
      relayed: (owner) =>
        owner === undefined
          ? [...relayedBy.values()].reduce((sum, count) => sum + count, 0)
          : (relayedBy.get(owner) ?? 0),
      failures: () => 0,
    },
    bus: {
      settled: () => Promise.allSettled([...pending]).then(() => undefined),
      inFlight: () => pending.size,
    },
  };
  return { pipeline, store: (record: Stored) => stream.push(record), delivered };
}

interface Stored {
  owner: number;
  /** How many more records its delivery stores after it. */
  depth: number;
}

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});

describe('draining the event pipeline', () => {
  it('waits for what the deliveries store in turn, to the end of the chain', async () => {
    const { pipeline, store, delivered } = memoryPipeline((record) =>
      record.depth > 0 ? [{ owner: record.owner, depth: record.depth - 1 }] : [],
    );
    store({ owner: 7, depth: 4 });
    const rounds = await drainPipeline(pipeline, { developerId: 7 });
    expect(delivered.map((record) => record.depth)).toEqual([4, 3, 2, 1, 0]);
    expect(rounds).toBe(5);
  });

  it("one account's drain is not held up by another's endless traffic, and still waits for its own", async () => {
    const { pipeline, store, delivered } = memoryPipeline((record) =>
      // Account 8's records cause one more each, for ever; account 7's chain is three long.
      record.owner === 8 ? [record] : record.depth > 0 ? [{ owner: 7, depth: record.depth - 1 }] : [],
    );
    store({ owner: 8, depth: 0 });
    store({ owner: 7, depth: 2 });
    await drainPipeline(pipeline, { developerId: 7 });
    expect(delivered.filter((record) => record.owner === 7).map((record) => record.depth)).toEqual([2, 1, 0]);
    // Every round relays one more of account 8's: a drain of every account never ends, and says so.
    await expect(drainPipeline(pipeline, { maxRounds: 10 })).rejects.toThrow(/10 rounds/);
  });

  it('gives up when its signal aborts, even while a delivery is still running', async () => {
    const never = new Promise<void>(() => undefined);
    const stuck: LocalPipeline = {
      reader: { caughtUp: async () => undefined, relayed: () => 0, failures: () => 0 },
      bus: { settled: () => never, inFlight: () => 1 },
    };
    const signal = AbortSignal.timeout(100);
    await expect(drainPipeline(stuck, { signal })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('answers on the shared stack once a payment reached a slow receiver and its attempt is recorded', async () => {
    const account = await newAccount('pipeline-drain');
    const auth = apiKey(account.testKey);
    const created = await api('POST', '/v1/webhook-endpoints/', {
      auth,
      body: { url: `${receiver.url}/slow`, events: ['payment.succeeded'] },
    });
    expect(created.status, created.text).toBe(201);
    receiver.delay('/slow', 1_500);
    const paid = await payThroughCheckout(auth);
    await pipelineDrained(localInfo, account.developerId);
    // No waiting from here: the event, its task and its attempt all went through before the answer.
    expect(receiver.received.map((request) => request.json.data?.object?.id)).toEqual([paid.id]);
    const listed = await api('GET', `/v1/webhook-endpoints/${created.json.data.id}/deliveries/`, { auth });
    expect(listed.json.results).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })]);
  });

  it('refuses a drain request it cannot read, and one without the control token', async () => {
    const url = `${localInfo.control_url}/pipeline/drain`;
    const headers = { Authorization: `Bearer ${localInfo.control_token}` };
    for (const body of ['{"developer_id": 0}', '{"timeout_ms": 999999}', '{"account": 1}', '[]']) {
      expect((await fetch(url, { method: 'POST', headers, body })).status, body).toBe(400);
    }
    expect((await fetch(url, { method: 'POST', body: '{}' })).status).toBe(401);
  });
});
