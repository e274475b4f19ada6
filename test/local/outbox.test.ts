/**
 * An event is never lost once stored (docs/design.md#events): stored while the bus is down, kept
 * through a stop of the whole stack, and delivered once after the next start, which reads the
 * table's stream on from where the last one left off.
 */
import { describe, expect, it } from 'vitest';
import { stopCobro } from '../support/global-setup.ts';
import { pipelineDrained, pipelineState, relayFailedSince } from '../support/pipeline.ts';
import { startReceiver, verify } from '../support/receiver.ts';
import { readInfo, stackHarness } from './harness.ts';

const { startIn, tempDir } = stackHarness();

describe('the outbox across a restart', () => {
  it('delivers after the next start an event stored while the bus was down, once', {
    timeout: 240_000,
  }, async () => {
    const receiver = await startReceiver();
    const stateDir = tempDir();
    const first = startIn(stateDir);
    const api = await first.ready;
    const info = readInfo(stateDir);
    const auth = { Authorization: `Api-Key ${info.demo?.test_key}` };
    const created = await fetch(`${api}/v1/webhook-endpoints/`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/restart`, events: ['charge.succeeded'] }),
    });
    expect(created.status).toBe(201);
    const { secret } = ((await created.json()) as { data: { secret: string } }).data;

    const down = await fetch(`${info.endpoints.eventbridge}/_local/outage`, {
      method: 'POST',
      body: JSON.stringify({ down: true }),
    });
    expect(down.status).toBe(200);
    const charged = await fetch(`${api}/v1/charges/simple/create/`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        amount: '7.00',
        currency: 'usd',
        credit_card_number: '4242424242424242',
        credit_card_security_code_number: '123',
        exp_month: '12',
        exp_year: String(new Date().getUTCFullYear() + 3),
      }).toString(),
    });
    expect(charged.status).toBe(201);
    const chargeId = ((await charged.json()) as { id: string }).id;
    // The relay has met the outage since the charge was stored, and nothing got past the bus.
    await relayFailedSince(info, (await pipelineState(info)).relay_failures);
    expect(receiver.received).toHaveLength(0);
    expect(await stopCobro(first.child)).toBe(0); // stopped with the event stored and unsent

    const second = startIn(stateDir);
    await second.ready;
    const [delivered] = await receiver.waitFor((request) => request.path === '/restart', 1, 30_000);
    expect(delivered?.json).toMatchObject({ type: 'charge.succeeded', data: { object: { id: chargeId } } });
    verify(secret, delivered as never);
    // The second stack has read the stream to its end and delivered all it relayed: once.
    await pipelineDrained(readInfo(stateDir), info.demo?.developer_id as number);
    expect(receiver.received).toHaveLength(1);
    expect(await stopCobro(second.child)).toBe(0);
  });
});
