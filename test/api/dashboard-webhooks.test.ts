/**
 * The dashboard's webhooks, events and API keys pages against the local stack: an endpoint's
 * signing secret shown once (and a second submit of the form making nothing), deliveries and a
 * Redeliver form that acts once under a double submit and within the API's limits, rotation and
 * deletion through a confirmation step, the events list and an event's JSON, CSRF refusals that
 * change nothing, and a key rotation that ends the session it was opened with.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { redeliveryLimits } from '../../shared/webhooks/events.ts';
import { webhookKeys } from '../../shared/webhooks/keys.ts';
import { DashboardClient, dashboardUrl, formToken, hiddenField } from '../support/dashboard.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import { type Receiver, startReceiver, verify } from '../support/receiver.ts';
import {
  api,
  apiKey,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';

let receiver: Receiver;
let account: TestAccount;
let auth: string;
let browser: DashboardClient;
let paths = 0;
const nextPath = () => `/dash-hook-${++paths}`;

beforeAll(async () => {
  useLocalEnvironment();
  [receiver, account] = await Promise.all([startReceiver(), newAccount('dashboard-webhooks')]);
  auth = apiKey(account.testKey);
  browser = await new DashboardClient().signedIn(account.testKey);
});

/** The fields of the add-endpoint form on the endpoints page. */
async function addForm(client = browser) {
  const page = await client.get('webhooks');
  expect(page.status, page.html).toBe(200);
  return { csrf_token: formToken(page.html), idempotency_key: hiddenField(page.html, 'idempotency_key') };
}

async function endpointCount(): Promise<number> {
  const list = await api('GET', '/v1/webhook-endpoints/', { auth });
  expect(list.status).toBe(200);
  return list.json.count as number;
}

/** Adds an endpoint through the dashboard's form: its id and the secret its answer showed. */
async function addEndpoint(path: string, events: string[] = ['plan.deleted']) {
  const form = await addForm();
  const body = new URLSearchParams({
    ...form,
    url: `${receiver.url}${path}`,
    description: 'From the dashboard',
  });
  for (const type of events) body.append('events', type);
  const created = await browser.post('webhooks', body);
  expect(created.status, created.html).toBe(201);
  const secret = /data-secret>(whsec_[^<]+)</.exec(created.html)?.[1] as string;
  const id = /<code>(we_[A-Za-z0-9]+)<\/code>/.exec(created.html)?.[1] as string;
  expect(secret).toMatch(/^whsec_/);
  expect(id).toMatch(/^we_/);
  return { id, secret, form, body, created };
}

/** An event of the account: a plan made and deleted (`plan.deleted`); answers the event's id once stored. */
async function planDeleted(): Promise<string> {
  const plan = await api('POST', '/v1/plans/', {
    auth,
    body: { name: 'Dashboard hooks', currency: 'USD', amount: '5.00', interval: 'month', interval_count: 1 },
  });
  expect(plan.status, plan.text).toBe(201);
  const gone = await api('DELETE', `/v1/plans/${plan.json.data.id}/`, { auth });
  expect(gone.status, gone.text).toBe(200);
  const events = await api('GET', '/v1/events/?type=plan.deleted&page_size=1', { auth });
  expect(events.status).toBe(200);
  return events.json.results[0].id as string;
}

/** The delivery tasks stored for one event and endpoint: one per round of sending. */
async function tasksOf(endpointId: string, eventId: string) {
  const deps = makeDeps();
  const { pk, sk } = webhookKeys.task(account.developerId, 'test', endpointId, eventId, '');
  const found = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': sk },
      ConsistentRead: true,
    }),
  );
  return found.Items ?? [];
}

/** The Redeliver form of an event's row on the endpoint's page, once the page lists a delivery of it. */
async function redeliverForm(endpointId: string, eventId: string) {
  const until = Date.now() + 15_000;
  for (;;) {
    const page = await browser.get(`webhooks/${endpointId}`);
    expect(page.status, page.html).toBe(200);
    const form = new RegExp(
      `<input type="hidden" name="csrf_token" value="([^"]+)"><input type="hidden" name="event_id" value="${eventId}"><input type="hidden" name="idempotency_key" value="([^"]+)">`,
    ).exec(page.html);
    if (form)
      return {
        page,
        fields: { csrf_token: form[1] as string, event_id: eventId, idempotency_key: form[2] as string },
      };
    expect(Date.now(), `no delivery of ${eventId} listed`).toBeLessThan(until);
    // Polled: the attempt is listed once the delivery function has recorded it.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('webhook endpoints', () => {
  it('adding one shows its signing secret once; the same form again makes nothing and shows no secret', async () => {
    const before = await endpointCount();
    const path = nextPath();
    const { id, secret, body } = await addEndpoint(path);
    expect(await endpointCount()).toBe(before + 1);

    // The secret signs the deliveries: a receiver configured with it verifies them.
    const eventId = await planDeleted();
    const [delivery] = await receiver.waitFor((request) => request.path === path);
    expect(delivery?.json.id).toBe(eventId);
    expect(() => verify(secret, delivery as NonNullable<typeof delivery>)).not.toThrow();

    // The same form submitted again: to the endpoint made the first time, nothing new, no secret.
    const again = await browser.post('webhooks', body);
    expect(again.status, again.html).toBe(303);
    expect(again.location).toBe(`${dashboardUrl(`webhooks/${id}`)}?already=created`);
    expect(again.html).not.toContain(secret);
    expect(await endpointCount()).toBe(before + 1);
    const page = await browser.get(again.location as string);
    expect(page.status).toBe(200);
    expect(page.html).toContain('This form was already submitted');
    expect(page.html).not.toContain(secret);
    expect(page.html).not.toContain('whsec_');

    // The list shows it, as the API lists it, never with a secret.
    const list = await browser.get('webhooks');
    expect(list.html).toContain(id);
    expect(list.html).toContain(`${receiver.url}${path}`);
    expect(list.html).not.toContain('whsec_');
  });

  it('what the API refuses is shown with its status, the values kept', async () => {
    const before = await endpointCount();
    const form = await addForm();
    const refused = await browser.post('webhooks', { ...form, url: 'ftp://example.com/hook' });
    expect(refused.status, refused.html).toBe(400);
    expect(refused.html).toContain('role="alert"');
    expect(refused.html).toContain('value="ftp://example.com/hook"');
    // The same key is kept in the form shown again: the corrected form still acts once.
    expect(hiddenField(refused.html, 'idempotency_key')).toBe(form.idempotency_key);
    expect(await endpointCount()).toBe(before);
  });

  it('a form without the session’s CSRF token is refused (403) and adds nothing', async () => {
    const before = await endpointCount();
    const form = await addForm();
    const refused = await browser.post('webhooks', {
      ...form,
      csrf_token: 'x'.repeat(32),
      url: `${receiver.url}${nextPath()}`,
    });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('This form expired');
    expect(await endpointCount()).toBe(before);
  });

  it('rotating the secret asks first; the answer shows the new secret once, and it signs', async () => {
    const path = nextPath();
    const { id, secret } = await addEndpoint(path);
    const ask = await browser.get(`webhooks/${id}/rotate-secret`);
    expect(ask.status).toBe(200);
    expect(ask.html).toContain('Rotate the signing secret?');
    expect(ask.html).toContain(`action="${dashboardUrl(`webhooks/${id}/rotate-secret`)}"`);
    const rotated = await browser.post(`webhooks/${id}/rotate-secret`, { csrf_token: formToken(ask.html) });
    expect(rotated.status, rotated.html).toBe(200);
    const next = /data-secret>(whsec_[^<]+)</.exec(rotated.html)?.[1] as string;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect((await browser.get(`webhooks/${id}`)).html).not.toContain(next);

    await planDeleted();
    const [delivery] = await receiver.waitFor((request) => request.path === path);
    expect(() => verify(next, delivery as NonNullable<typeof delivery>)).not.toThrow();
  });

  it('deleting asks first, then deletes as the API does (404 after)', async () => {
    const { id } = await addEndpoint(nextPath());
    const ask = await browser.get(`webhooks/${id}/delete`);
    expect(ask.status).toBe(200);
    expect(ask.html).toContain('Delete this endpoint?');
    const forged = await browser.post(`webhooks/${id}/delete`, { csrf_token: 'y'.repeat(32) });
    expect(forged.status).toBe(403);
    expect((await api('GET', `/v1/webhook-endpoints/${id}/`, { auth })).status).toBe(200);

    const deleted = await browser.post(`webhooks/${id}/delete`, { csrf_token: formToken(ask.html) });
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe(`${dashboardUrl('webhooks')}?deleted=${id}`);
    expect((await browser.get(deleted.location as string)).html).toContain(`Endpoint ${id} deleted.`);
    expect((await api('GET', `/v1/webhook-endpoints/${id}/`, { auth })).status).toBe(404);
    expect((await browser.get(`webhooks/${id}`)).status).toBe(404);
  });

  it('another account’s endpoint is not found', async () => {
    const other = await newAccount('dashboard-webhooks-other');
    const created = await api('POST', '/v1/webhook-endpoints/', {
      auth: apiKey(other.testKey),
      body: { url: `${receiver.url}/other` },
    });
    expect(created.status).toBe(201);
    const page = await browser.get(`webhooks/${created.json.data.id}`);
    expect(page.status).toBe(404);
    expect(page.html).not.toContain('/other');
  });
});

describe('deliveries and redelivery', () => {
  it('lists the deliveries as the API does; Redeliver acts once under a double submit', async () => {
    const path = nextPath();
    const { id } = await addEndpoint(path);
    receiver.answer(path, 500);
    const eventId = await planDeleted();
    await receiver.waitFor((request) => request.path === path && request.json.id === eventId);

    const { page, fields } = await redeliverForm(id, eventId);
    // The attempt as the API records it: its answer code and the error it stored.
    const api500 = await api('GET', `/v1/webhook-endpoints/${id}/deliveries/`, { auth });
    const first = api500.json.results.find((row: { event_id: string }) => row.event_id === eventId);
    expect(first.status_code).toBe(500);
    expect(page.html).toContain(`<td role="cell" class="num" data-label="Answer code">500</td>`);
    expect(page.html).toContain(`<code>${first.error}</code>`);
    expect(page.html).toContain(`${redeliveryLimits.perEvent} times an hour`);

    // Submitted twice at once: one redelivery is queued, the other answer says it was already.
    const [a, b] = await Promise.all([
      browser.post(`webhooks/${id}/redeliver`, fields),
      browser.post(`webhooks/${id}/redeliver`, fields),
    ]);
    expect([a.status, b.status]).toEqual([303, 303]);
    const locations = [a.location, b.location].sort();
    expect(locations).toEqual(
      [
        `${dashboardUrl(`webhooks/${id}`)}?redelivered=${eventId}&already=redelivered`,
        `${dashboardUrl(`webhooks/${id}`)}?redelivered=${eventId}&count=1`,
      ].sort(),
    );
    await receiver.waitFor((request) => request.path === path && request.json.id === eventId, 2);
    await pipelineDrained(localInfo, account.developerId);
    // Two rounds in all (the first sending and one redelivery), two requests: not three.
    expect(await tasksOf(id, eventId)).toHaveLength(2);
    // The retry of the failed first attempt may also have arrived: what counts is the rounds.
    const done = await browser.get(`webhooks/${id}?redelivered=${eventId}&count=1`);
    expect(done.html).toContain(`Event ${eventId} queued for redelivery (1).`);
  });

  it('a Redeliver form without the session’s CSRF token is refused (403) and queues nothing', async () => {
    const path = nextPath();
    const { id } = await addEndpoint(path);
    const eventId = await planDeleted();
    await receiver.waitFor((request) => request.path === path && request.json.id === eventId);
    const { fields } = await redeliverForm(id, eventId);
    const refused = await browser.post(`webhooks/${id}/redeliver`, { ...fields, csrf_token: 'z'.repeat(32) });
    expect(refused.status).toBe(403);
    expect(await tasksOf(id, eventId)).toHaveLength(1);
  });

  it('past the API’s limit of redeliveries of one event, the page says so with 429 and nothing is queued', async () => {
    const path = nextPath();
    const { id } = await addEndpoint(path);
    const eventId = await planDeleted();
    await receiver.waitFor((request) => request.path === path && request.json.id === eventId);
    for (let n = 1; n <= redeliveryLimits.perEvent; n++) {
      const { fields } = await redeliverForm(id, eventId);
      const queued = await browser.post(`webhooks/${id}/redeliver`, fields);
      expect(queued.status, queued.html).toBe(303);
    }
    const { fields } = await redeliverForm(id, eventId);
    const refused = await browser.post(`webhooks/${id}/redeliver`, fields);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(refused.html).toContain('role="alert"');
    expect(refused.html).toContain(String(redeliveryLimits.perEvent));
    expect(await tasksOf(id, eventId)).toHaveLength(1 + redeliveryLimits.perEvent);
  });
});

describe('events', () => {
  it('lists them as GET /v1/events/ does (type filter, paging) and shows one as its escaped JSON', async () => {
    const eventId = await planDeleted();
    const list = await browser.get('events?type=plan.deleted&page_size=1');
    expect(list.status, list.html).toBe(200);
    expect(list.html).toContain(eventId);
    expect(list.html).toMatch(/<option value="plan.deleted" selected>/);
    const count = (await api('GET', '/v1/events/?type=plan.deleted', { auth })).json.count as number;
    expect(list.html).toContain(`Page 1 of ${count} (${count} in all)`);

    const bad = await browser.get('events?page_size=0');
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('role="alert"');

    const one = await browser.get(`events/${eventId}`);
    expect(one.status).toBe(200);
    const shown = (await api('GET', `/v1/events/${eventId}/`, { auth })).json;
    expect(one.html).toContain(`&quot;id&quot;: &quot;${eventId}&quot;`);
    expect(one.html).toContain(`&quot;type&quot;: &quot;${shown.type}&quot;`);

    const missing = await browser.get(`events/evt_${'a'.repeat(24)}`);
    expect(missing.status).toBe(404);
  });
});

describe('API keys', () => {
  it('shows them masked as the API does; a test session may not rotate the live key (403, nothing changed)', async () => {
    const keys = (await api('GET', '/v1/auth/api-keys/', { auth })).json;
    const page = await browser.get('api-keys');
    expect(page.status).toBe(200);
    expect(page.html).toContain(keys.test.key);
    expect(page.html).toContain(keys.live.key);
    expect(page.html).not.toContain(account.testKey);
    expect(page.html).toContain('api-keys/rotate?type=test');
    expect(page.html).not.toContain('api-keys/rotate?type=live');

    const refused = await browser.post('api-keys/rotate', { csrf_token: formToken(page.html), type: 'live' });
    expect(refused.status).toBe(403);
    expect((await api('GET', '/v1/auth/api-keys/', { auth })).json).toEqual(keys);
  });

  it('rotating asks first; the mode’s own key rotated shows the new key once and the session goes on', async () => {
    const own = await newAccount('dashboard-key-rotation');
    const client = await new DashboardClient().signedIn(own.testKey);
    const ask = await client.get('api-keys/rotate?type=test');
    expect(ask.status).toBe(200);
    expect(ask.html).toContain('your dashboard session goes on');

    const forged = await client.post('api-keys/rotate', { csrf_token: 'q'.repeat(32), type: 'test' });
    expect(forged.status).toBe(403);
    expect((await api('GET', '/v1/auth/api-keys/', { auth: apiKey(own.testKey) })).status).toBe(200);

    const rotated = await client.post('api-keys/rotate', { csrf_token: formToken(ask.html), type: 'test' });
    expect(rotated.status, rotated.html).toBe(200);
    const newKey = /data-secret>(sk_test_[^<]+)</.exec(rotated.html)?.[1] as string;
    expect(newKey).toMatch(/^sk_test_/);
    expect(newKey).not.toBe(own.testKey);
    expect(rotated.cookies.some((cookie) => cookie.startsWith('cobro_dashboard='))).toBe(false);

    // The session goes on, and the new key opens the API.
    expect((await client.get('')).status).toBe(200);
    expect((await api('GET', '/v1/auth/api-keys/', { auth: apiKey(newKey) })).status).toBe(200);
  });

  it('a live session rotating the test key stays signed in', async () => {
    const own = await newAccount('dashboard-key-rotation-live');
    const client = await new DashboardClient().signedIn(own.liveKey);
    const ask = await client.get('api-keys/rotate?type=test');
    expect(ask.html).not.toContain('your dashboard session goes on');
    const rotated = await client.post('api-keys/rotate', { csrf_token: formToken(ask.html), type: 'test' });
    expect(rotated.status, rotated.html).toBe(200);
    expect(rotated.html).toMatch(/data-secret>sk_test_/);
    expect((await client.get('api-keys')).status).toBe(200);
  });
});
