/**
 * `cobro trigger <type>`: a made-up test event of any catalogue type, delivered to the account's
 * endpoints through the stack's pipeline, signed; no other consumer acts on it.
 */
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { sample } from '../../bin/cli/sample.ts';
import { eventCatalogue } from '../../shared/api/events.ts';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { sentMail } from '../support/mail.ts';
import { startReceiver, verify } from '../support/receiver.ts';
import {
  api,
  apiKey,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';

let account: TestAccount;
beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('trigger');
});

/** Registers an endpoint of the account at `url` taking `events`; answers its id and secret. */
async function endpoint(owner: TestAccount, url: string, events: string[]) {
  const created = await api('POST', '/v1/webhook-endpoints/', {
    auth: apiKey(owner.testKey),
    body: { url, events },
  });
  expect(created.status).toBe(201);
  return { id: created.json.data.id as string, secret: created.json.data.secret as string };
}

describe('trigger', () => {
  it('makes data its schema accepts for every type of the catalogue', () => {
    for (const eventType of eventCatalogue) {
      const data = sample(eventType.data, eventType.type, new Date());
      const parsed = v.safeParse(eventType.data, data);
      expect(parsed.issues?.map((issue) => issue.message) ?? [], eventType.type).toEqual([]);
    }
  });

  it('delivers a signed test event to the endpoints that take its type, and lists it', async () => {
    const receiver = await startReceiver();
    const all = await endpoint(account, `${receiver.url}/all`, ['*']);
    const refunds = await endpoint(account, `${receiver.url}/refunds`, ['refund.created']);
    const { stdout } = await cli('trigger', 'payment.succeeded', '--key', account.testKey, '--json');
    const sent = JSON.parse(stdout);
    expect(sent).toMatchObject({ type: 'payment.succeeded', developer_id: account.developerId });
    expect(sent.endpoints).toContain(all.id);
    expect(sent.endpoints).not.toContain(refunds.id);

    const [delivery] = await receiver.waitFor((request) => request.headers['webhook-id'] === sent.id);
    expect(delivery?.path).toBe('/all');
    const body = verify(all.secret, delivery as never) as Record<string, unknown>;
    expect(body).toMatchObject({ id: sent.id, type: 'payment.succeeded', test: true });
    expect(body.data).toMatchObject({ object: { status: 'completed', currency: 'USD' } });

    const auth = apiKey(account.testKey);
    const stored = await api('GET', `/v1/events/${sent.id}/`, { auth });
    expect(stored.status).toBe(200);
    expect(stored.json).toMatchObject({ id: sent.id, type: 'payment.succeeded', test: true });
    // The refund-only endpoint was handed nothing for it.
    const deliveries = await api('GET', `/v1/webhook-endpoints/${refunds.id}/deliveries/`, { auth });
    expect(deliveries.json.count).toBe(0);
  });

  it('without --key or --account, on the local stack, is for the demo account', async () => {
    const demo = localInfo.demo;
    if (!demo) throw new Error('the test stack wrote no demo account');
    const { stdout } = await cli('trigger', 'payment.succeeded', '--json');
    expect(JSON.parse(stdout)).toMatchObject({ type: 'payment.succeeded', developer_id: demo.developer_id });
  });

  it('reaches webhooks only: a triggered api_key.rotated e-mails nobody', async () => {
    const owner = await newAccount('trigger-mail');
    const receiver = await startReceiver();
    const hook = await endpoint(owner, `${receiver.url}/keys`, ['api_key.rotated']);
    const { stdout } = await cli(
      'trigger',
      'api_key.rotated',
      '--account',
      String(owner.developerId),
      '--json',
    );
    const sent = JSON.parse(stdout);
    expect(sent.endpoints).toEqual([hook.id]);
    const [delivery] = await receiver.waitFor((request) => request.headers['webhook-id'] === sent.id);
    verify(hook.secret, delivery as never);
    // The e-mail rule would have run beside the fan-out, before this delivery's later hop.
    expect((await sentMail()).filter((mail) => mail.destination.to.includes(owner.email))).toEqual([]);
  });

  it('refuses an unknown type in one line, with the nearest and the list; and a live key', async () => {
    // The list is the whole catalogue, whatever types areas add to it.
    const types = eventCatalogue.map((event) => event.type).join(', ');
    await expectCliRefusal(
      ['trigger', 'paymnt.succeeded'],
      2,
      `cobro: unknown event type "paymnt.succeeded"; did you mean "payment.succeeded"? types: ${types}; see: npm run -s cli -- trigger --help\n`,
    );
    await expectCliRefusal(['trigger'], 2, /^cobro: give an event type, one of: api_key\.rotated, /);
    await expectCliRefusal(['trigger', 'payment.succeeded', '--key', account.liveKey], 2, 'test key');
  });
});
