/**
 * Customers through the local gateway: create, read, update, delete, photo, addresses, the list
 * (Envelope B) and the search view; e-mail uniqueness and the address limit under races; isolation
 * between accounts and modes; the customers checkout creates are the same records.
 */
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { CreateCustomerSchema } from '../../shared/customers/schemas.ts';
import { errorFields, expect400, expectEnvelope, expectMessage } from '../support/answers.ts';
import { createPayment, payThroughCheckout, submitCard } from '../support/checkout.ts';
import { jpeg, png } from '../support/images.ts';
import { concurrently, statusCounts } from '../support/race.ts';
import {
  api,
  apiKey,
  apiUrl,
  basic,
  bearer,
  newMerchant,
  suiteMerchant,
  tokenFor,
} from '../support/stack.ts';

const customersPath = '/v1/customers/';
const customerPath = (id: string) => `/v1/customers/${id}/`;
const formType = { 'Content-Type': 'application/x-www-form-urlencoded' };

type Body = Record<string, unknown>;
let sequence = 0;
const uniqueEmail = (label = 'c') => `${label}-${process.pid}-${Date.now()}-${++sequence}@example.com`;
const customerBody = (overrides: Body = {}): Body => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: uniqueEmail(),
  ...overrides,
});

async function createCustomer(auth: string, overrides: Body = {}) {
  const response = await api('POST', customersPath, { auth, body: customerBody(overrides) });
  expect(response.status, response.text).toBe(201);
  return response.json.data as Record<string, unknown> & { id: string; email: string };
}

/** PUT of a multipart body with one file field (or a text field when `file` is a string). */
async function putPhoto(auth: string, id: string, file: Buffer | string, name = 'photo', type = 'image/png') {
  const form = new FormData();
  if (typeof file === 'string') form.set(name, file);
  else form.set(name, new Blob([file], { type }), 'me.png');
  const response = await fetch(`${apiUrl}${customerPath(id)}photo/`, {
    method: 'PUT',
    headers: { Authorization: auth },
    body: form,
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths
  return { status: response.status, text, json: JSON.parse(text) as Record<string, any> };
}

const viewKeys = [
  'country',
  'created_on',
  'developer',
  'email',
  'first_name',
  'id',
  'last_name',
  'metadata',
  'phone',
  'photo',
  'test',
];
const searchKeys = [
  'country',
  'created_on',
  'developer_id',
  'email',
  'first_name',
  'id',
  'last_name',
  'metadata',
  'pay_providers',
  'phone',
  'photo',
  'test',
];

describe('POST /v1/customers/ and GET /v1/customers/{id}/', () => {
  const shop = suiteMerchant('customers-create');

  it('creates a customer: 201 with the customer as data; GET answers the same view', async () => {
    const email = uniqueEmail('Ada.Created');
    const response = await api('POST', customersPath, {
      auth: shop.auth,
      body: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email,
        phone: '+506 8888 0000',
        country: 'CR',
        metadata: { tier: 'gold', n: 3 },
      },
    });
    expectMessage(response, 201, { type: 'success', title: 'Customer created' });
    const data = response.json.data;
    expect(Object.keys(data).sort()).toEqual(viewKeys);
    expect(data).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: email.toLowerCase(),
      phone: '+506 8888 0000',
      country: 'CR',
      metadata: { tier: 'gold', n: 3 },
      photo: null,
      developer: shop.account.developerId,
      test: true,
    });
    expect(data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const got = await api('GET', customerPath(data.id), { auth: shop.auth });
    expect(got.status).toBe(200);
    expect(got.json).toEqual(data);
  });

  it('takes a form body with bracketed metadata', async () => {
    const email = uniqueEmail('form');
    const response = await api('POST', customersPath, {
      auth: shop.auth,
      rawBody: new URLSearchParams({
        first_name: 'Grace',
        last_name: 'Hopper',
        email,
        'metadata[team]': 'navy',
      }).toString(),
      headers: formType,
    });
    expect(response.status, response.text).toBe(201);
    expect(response.json.data).toMatchObject({
      first_name: 'Grace',
      email,
      metadata: { team: 'navy' },
      phone: null,
    });
  });

  it('names every missing required field, a bad e-mail, and unknown fields (400, nothing stored)', async () => {
    const missing = await api('POST', customersPath, { auth: shop.auth, body: {} });
    expect400(missing);
    expect(errorFields(missing)).toEqual(['first_name', 'last_name', 'email']);
    expect(missing.json.content).toContain('first_name is required.');
    const badEmail = await api('POST', customersPath, {
      auth: shop.auth,
      body: customerBody({ email: 'not-an-email' }),
    });
    expect400(badEmail, 'email must be a valid e-mail address.');
    const unknown = await api('POST', customersPath, {
      auth: shop.auth,
      body: customerBody({ nickname: 'x' }),
    });
    expect(errorFields(unknown)).toEqual(['nickname']);
    const long = await api('POST', customersPath, {
      auth: shop.auth,
      body: customerBody({ first_name: 'x'.repeat(51) }),
    });
    expect(errorFields(long)).toEqual(['first_name']);
    const blank = await api('POST', customersPath, {
      auth: shop.auth,
      body: customerBody({ last_name: '   ' }),
    });
    expect(errorFields(blank)).toEqual(['last_name']);
    const list = await api('GET', `${customersPath}?search=not-an-email`, { auth: shop.auth });
    expect(list.status).toBe(404);
  });

  it('metadata: a JSON object of at most 10 KB; more, or not an object, is 400', async () => {
    const fits = { blob: 'x'.repeat(10 * 1024 - '{"blob":""}'.length) };
    expect(Buffer.byteLength(JSON.stringify(fits))).toBe(10 * 1024);
    const ok = await api('POST', customersPath, { auth: shop.auth, body: customerBody({ metadata: fits }) });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.json.data.metadata).toEqual(fits);
    const over = { blob: `${fits.blob}y` };
    const tooBig = await api('POST', customersPath, {
      auth: shop.auth,
      body: customerBody({ metadata: over }),
    });
    expect400(tooBig);
    expect(errorFields(tooBig)).toEqual(['metadata']);
    for (const metadata of [[1, 2], 'text', 7]) {
      const wrong = await api('POST', customersPath, { auth: shop.auth, body: customerBody({ metadata }) });
      expect(errorFields(wrong), JSON.stringify(metadata)).toEqual(['metadata']);
    }
    const nulled = await api('POST', customersPath, {
      auth: shop.auth,
      body: customerBody({ metadata: null }),
    });
    expect(nulled.json.data.metadata).toBeNull();
  });

  it('a duplicate e-mail in the account and mode is 400, whatever its case', async () => {
    const first = await createCustomer(shop.auth, { email: uniqueEmail('dup') });
    const again = await api('POST', customersPath, {
      auth: shop.auth,
      body: customerBody({ email: first.email.toUpperCase() }),
    });
    expect400(again);
    expect(again.json.title).toBe('E-mail in use');
  });

  it('racing creates with one e-mail: exactly one 201, one customer listed', async () => {
    const { auth } = await newMerchant('customers-email-race');
    const email = uniqueEmail('race');
    const answers = await concurrently(10, () =>
      api('POST', customersPath, { auth, body: customerBody({ email }) }),
    );
    expect(statusCounts(answers)).toEqual({ 201: 1, 400: 9 });
    const list = await api('GET', customersPath, { auth });
    expect(list.json.count).toBe(1);
    expect(list.json.results.map((c: { email: string }) => c.email)).toEqual([email]);
  });

  it('a body `test` that contradicts the mode is 400; a malformed id or an unknown one is 404', async () => {
    const mismatch = await api('POST', customersPath, {
      auth: shop.auth,
      body: customerBody({ test: false }),
    });
    expect400(mismatch);
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      const missing = await api('GET', customerPath(id), { auth: shop.auth });
      expectEnvelope(missing, 404, {
        title: 'Customer not found',
        content: 'The customer could not be found.',
        type: 'error',
      });
    }
  });

  it('answers in Spanish with Accept-Language: es', async () => {
    const missing = await api('GET', customerPath('00000000-0000-4000-8000-000000000000'), {
      auth: shop.auth,
      headers: { 'Accept-Language': 'es' },
    });
    expect(missing.json.title).toBe('Cliente no encontrado');
  });
});

describe('PUT and DELETE /v1/customers/{id}/', () => {
  const shop = suiteMerchant('customers-update');

  it('changes the fields given and keeps the others; the search follows the new e-mail and name', async () => {
    const created = await createCustomer(shop.auth, { first_name: 'Oldname', phone: '123' });
    const newEmail = uniqueEmail('renamed');
    const response = await api('PUT', customerPath(created.id), {
      auth: shop.auth,
      body: { first_name: 'Newname', email: newEmail, metadata: { a: 1 } },
    });
    expectMessage(response, 200, { type: 'success', title: 'Customer updated' });
    expect(response.json.data).toMatchObject({
      first_name: 'Newname',
      last_name: 'Lovelace',
      email: newEmail,
      phone: '123',
      metadata: { a: 1 },
    });
    expect((await api('GET', customerPath(created.id), { auth: shop.auth })).json).toEqual(
      response.json.data,
    );
    expect((await api('GET', `${customersPath}?search=oldname`, { auth: shop.auth })).status).toBe(404);
    const byName = await api('GET', `${customersPath}?search=NEWNAME`, { auth: shop.auth });
    expect(byName.json.map((c: { id: string }) => c.id)).toEqual([created.id]);
    // The old e-mail is free again; the new one is taken.
    expect(
      (await api('POST', customersPath, { auth: shop.auth, body: customerBody({ email: created.email }) }))
        .status,
    ).toBe(201);
    expect(
      (await api('POST', customersPath, { auth: shop.auth, body: customerBody({ email: newEmail }) })).status,
    ).toBe(400);
  });

  it('an e-mail another customer has is 400 and changes nothing; bad values and mode flags are 400', async () => {
    const a = await createCustomer(shop.auth);
    const b = await createCustomer(shop.auth);
    const taken = await api('PUT', customerPath(b.id), {
      auth: shop.auth,
      body: { email: a.email, first_name: 'Changed' },
    });
    expect400(taken);
    expect((await api('GET', customerPath(b.id), { auth: shop.auth })).json).toMatchObject({
      email: b.email,
      first_name: 'Ada',
    });
    expect(
      errorFields(await api('PUT', customerPath(b.id), { auth: shop.auth, body: { email: 'x@' } })),
    ).toEqual(['email']);
    expect400(await api('PUT', customerPath(b.id), { auth: shop.auth, body: { is_test: false } }));
    expect(
      (
        await api('PUT', customerPath('00000000-0000-4000-8000-000000000000'), {
          auth: shop.auth,
          body: { phone: '1' },
        })
      ).status,
    ).toBe(404);
  });

  it('racing updates of one customer leave one consistent e-mail reservation and search entries', async () => {
    const { auth } = await newMerchant('customers-update-race');
    const created = await createCustomer(auth);
    const emails = Array.from({ length: 6 }, (_, i) => uniqueEmail(`racer${i}`));
    const answers = await concurrently(emails.length, (i) =>
      api('PUT', customerPath(created.id), { auth, body: { email: emails[i] } }),
    );
    expect(statusCounts(answers)).toEqual({ 200: emails.length });
    const final = (await api('GET', customerPath(created.id), { auth })).json.email as string;
    expect(emails).toContain(final);
    for (const email of emails.filter((e) => e !== final)) {
      // Every losing e-mail is free again and finds nobody.
      expect(
        (await api('GET', `${customersPath}?search=${encodeURIComponent(email)}`, { auth })).status,
      ).toBe(404);
    }
    expect(
      (await api('GET', `${customersPath}?search=${encodeURIComponent(final)}`, { auth })).json,
    ).toHaveLength(1);
    expect((await api('POST', customersPath, { auth, body: customerBody({ email: final }) })).status).toBe(
      400,
    );
    expect(
      (
        await api('POST', customersPath, {
          auth,
          body: customerBody({ email: emails.find((e) => e !== final) }),
        })
      ).status,
    ).toBe(201);
  });

  it('DELETE removes the customer, frees its e-mail and drops it from list and search', async () => {
    const { auth } = await newMerchant('customers-delete');
    const kept = await createCustomer(auth, { first_name: 'Keeper' });
    const gone = await createCustomer(auth, { first_name: 'Goner' });
    const deleted = await api('DELETE', customerPath(gone.id), { auth });
    expectEnvelope(deleted, 200, {
      title: 'Customer deleted',
      content: 'The customer was deleted.',
      type: 'success',
    });
    expect((await api('GET', customerPath(gone.id), { auth })).status).toBe(404);
    expect((await api('DELETE', customerPath(gone.id), { auth })).status).toBe(404);
    const list = await api('GET', customersPath, { auth });
    expect(list.json.count).toBe(1);
    expect(list.json.results.map((c: { id: string }) => c.id)).toEqual([kept.id]);
    expect((await api('GET', `${customersPath}?search=goner`, { auth })).status).toBe(404);
    expect(
      (await api('POST', customersPath, { auth, body: customerBody({ email: gone.email }) })).status,
    ).toBe(201);
  });
});

describe('PUT /v1/customers/{id}/photo/', () => {
  const shop = suiteMerchant('customers-photo');

  it('stores a PNG or JPEG and answers a URL that serves the same bytes; a new photo, a new URL', async () => {
    const customer = await createCustomer(shop.auth);
    const bytes = png();
    const response = await putPhoto(shop.auth, customer.id, bytes);
    expectMessage(response, 200, { type: 'success' });
    const url = response.json.data.photo as string;
    expect(url).toMatch(/\/media\/[0-9a-f]{64}\.png$/);
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await api('GET', customerPath(customer.id), { auth: shop.auth })).json.photo).toBe(url);

    const photo = jpeg();
    const second = await putPhoto(shop.auth, customer.id, photo, 'photo', 'application/octet-stream');
    expect(second.status, second.text).toBe(200);
    const jpegUrl = second.json.data.photo as string;
    expect(jpegUrl).not.toBe(url);
    expect(jpegUrl).toMatch(/\.jpg$/);
    expect(Buffer.from(await (await fetch(jpegUrl)).arrayBuffer()).equals(photo)).toBe(true);
  });

  it('checks the content, not the label; a missing file, a text field or over 5 MB is 400', async () => {
    const customer = await createCustomer(shop.auth);
    const text = await putPhoto(
      shop.auth,
      customer.id,
      Buffer.from('not an image at all'),
      'photo',
      'image/png',
    );
    expect400(text);
    expect(errorFields(text)).toEqual(['photo']);
    expect(errorFields(await putPhoto(shop.auth, customer.id, png(), 'picture'))).toEqual(['photo']);
    expect(errorFields(await putPhoto(shop.auth, customer.id, 'just text'))).toEqual(['photo']);
    const big = Buffer.concat([png(), Buffer.alloc(5 * 1024 * 1024)]);
    const tooBig = await putPhoto(shop.auth, customer.id, big);
    expect(errorFields(tooBig)).toEqual(['photo']);
    expect((await api('GET', customerPath(customer.id), { auth: shop.auth })).json.photo).toBeNull();
    expect((await putPhoto(shop.auth, '00000000-0000-4000-8000-000000000000', png())).status).toBe(404);
  });
});

describe('addresses', () => {
  const shop = suiteMerchant('customers-addresses');
  const addressesPath = (id: string) => `${customerPath(id)}addresses/`;
  const address = (n: number) => ({
    line1: `${n} Main St`,
    city: 'San José',
    postal_code: '10101',
    country: 'CR',
  });

  it('adds up to 3 (201 with the address), lists them as a bare array, the fourth is 406, deleting frees a place', async () => {
    const customer = await createCustomer(shop.auth);
    expect((await api('GET', addressesPath(customer.id), { auth: shop.auth })).json).toEqual([]);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const added = await api('POST', addressesPath(customer.id), { auth: shop.auth, body: address(n) });
      expectMessage(added, 201, { type: 'success' });
      expect(added.json.data).toMatchObject({ ...address(n), line2: null, state: null });
      ids.push(added.json.data.id);
    }
    const fourth = await api('POST', addressesPath(customer.id), { auth: shop.auth, body: address(4) });
    expectMessage(fourth, 406, { content: 'The customer already has 3 addresses.' });
    const listed = await api('GET', addressesPath(customer.id), { auth: shop.auth });
    expect(listed.json.map((a: { id: string }) => a.id)).toEqual(ids);
    expect(Object.keys(listed.json[0]).sort()).toEqual([
      'city',
      'country',
      'created_on',
      'id',
      'line1',
      'line2',
      'postal_code',
      'state',
    ]);
    expectEnvelope(await api('DELETE', `${addressesPath(customer.id)}${ids[1]}/`, { auth: shop.auth }), 200, {
      title: 'Address deleted',
      content: 'The address was deleted.',
      type: 'success',
    });
    expect((await api('DELETE', `${addressesPath(customer.id)}${ids[1]}/`, { auth: shop.auth })).status).toBe(
      404,
    );
    expect(
      (await api('POST', addressesPath(customer.id), { auth: shop.auth, body: address(5) })).status,
    ).toBe(201);
  });

  it('racing adds to an empty customer store exactly 3', async () => {
    const customer = await createCustomer(shop.auth);
    const answers = await concurrently(8, (i) =>
      api('POST', addressesPath(customer.id), { auth: shop.auth, body: address(i) }),
    );
    expect(statusCounts(answers)).toEqual({ 201: 3, 406: 5 });
    expect((await api('GET', addressesPath(customer.id), { auth: shop.auth })).json).toHaveLength(3);
  });

  it('line1 is required; unknown customers are 404', async () => {
    const customer = await createCustomer(shop.auth);
    expect(
      errorFields(await api('POST', addressesPath(customer.id), { auth: shop.auth, body: { city: 'x' } })),
    ).toEqual(['line1']);
    const ghost = '00000000-0000-4000-8000-000000000000';
    expect((await api('POST', addressesPath(ghost), { auth: shop.auth, body: address(1) })).status).toBe(404);
    expect((await api('GET', addressesPath(ghost), { auth: shop.auth })).status).toBe(404);
  });
});

describe('GET /v1/customers/: Envelope B and the search view', () => {
  it('lists newest first with absolute next/previous, clamps page_size, 404 past the last page, 400 on bad paging', async () => {
    const { auth } = await newMerchant('customers-list');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createCustomer(auth, { first_name: `P${i}` })).id);
    const first = await api('GET', `${customersPath}?page_size=2`, { auth });
    expect(first.status).toBe(200);
    expect(Object.keys(first.json).sort()).toEqual(['count', 'next', 'previous', 'results']);
    expect(first.json.count).toBe(5);
    expect(first.json.results.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    expect(first.json.previous).toBeNull();
    expect(first.json.next).toBe(`${apiUrl}/v1/customers/?page=2&page_size=2`);
    expect(Object.keys(first.json.results[0]).sort()).toEqual(viewKeys);
    const next = (await fetch(first.json.next, { headers: { Authorization: auth } }).then((r) =>
      r.json(),
    )) as {
      results: { id: string }[];
      previous: string | null;
    };
    expect(next.results.map((c: { id: string }) => c.id)).toEqual([ids[2], ids[1]]);
    expect(next.previous).toBe(`${apiUrl}/v1/customers/?page=1&page_size=2`);
    const last = await api('GET', `${customersPath}?page=3&page_size=2`, { auth });
    expect(last.json.results.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
    expect(last.json.next).toBeNull();
    expect((await api('GET', `${customersPath}?page=4&page_size=2`, { auth })).status).toBe(404);
    const clamped = await api('GET', `${customersPath}?page_size=1000`, { auth });
    expect(clamped.json.results).toHaveLength(5);
    for (const bad of ['page=0', 'page=x', 'page_size=-1', 'page_size=1.5']) {
      expect((await api('GET', `${customersPath}?${bad}`, { auth })).status, bad).toBe(400);
    }
    const defaults = await api('GET', customersPath, { auth });
    expect(defaults.json.results).toHaveLength(5);
    expect(defaults.json.next).toBeNull();
  });

  it('search view: a bare array of the search shape; 404 with `query` when nothing matches; 400 when empty', async () => {
    const { auth, account } = await newMerchant('customers-search');
    const ana = await createCustomer(auth, { first_name: 'Anabel', email: uniqueEmail('zz-anabel') });
    const bel = await createCustomer(auth, { first_name: 'Isabel', email: uniqueEmail('zz-isabel') });
    await createCustomer(auth, { first_name: 'Mario', email: uniqueEmail('mario') });
    const byName = await api('GET', `${customersPath}?search=BEL`, { auth });
    expect(byName.status).toBe(200);
    expect(Array.isArray(byName.json)).toBe(true);
    expect(byName.json.map((c: { id: string }) => c.id)).toEqual([bel.id, ana.id]);
    expect(Object.keys(byName.json[0]).sort()).toEqual(searchKeys);
    expect(byName.json[0]).toMatchObject({
      developer_id: account.developerId,
      pay_providers: [],
      test: true,
    });
    const byEmail = await api('GET', `${customersPath}?search=${encodeURIComponent('zz-isa')}`, { auth });
    expect(byEmail.json.map((c: { id: string }) => c.id)).toEqual([bel.id]);
    // last_name is not searched.
    expect((await api('GET', `${customersPath}?search=lovelace`, { auth })).status).toBe(404);
    const none = await api('GET', `${customersPath}?search=xyzzy`, { auth });
    expect(none.status).toBe(404);
    expect(none.json).toEqual({
      message: {
        code: 404,
        title: expect.any(String),
        content: expect.any(String),
        type: 'warning',
        query: 'xyzzy',
      },
    });
    for (const empty of ['search=', 'search=%20%20']) {
      const answer = await api('GET', `${customersPath}?${empty}`, { auth });
      expect400(answer, 'The search query cannot be empty.');
    }
    // With paging, the same search is Envelope B (count 0 when nothing matches).
    const paged = await api('GET', `${customersPath}?search=bel&page=1`, { auth });
    expect(paged.json.count).toBe(2);
    expect(paged.json.results.map((c: { id: string }) => c.id)).toEqual([bel.id, ana.id]);
    expect(Object.keys(paged.json.results[0]).sort()).toEqual(viewKeys);
    const pagedNone = await api('GET', `${customersPath}?search=xyzzy&page_size=5`, { auth });
    expect(pagedNone.status).toBe(200);
    expect(pagedNone.json).toEqual({ count: 0, next: null, previous: null, results: [] });
    const linked = await api('GET', `${customersPath}?search=bel&page_size=1`, { auth });
    expect(linked.json.next).toBe(`${apiUrl}/v1/customers/?page=2&page_size=1&search=bel`);
  });
});

describe('isolation: another account or mode sees an absent record', () => {
  it('another account and the other mode get 404 on every verb and never see the customer', async () => {
    const owner = await newMerchant('customers-owner');
    const other = await newMerchant('customers-other');
    const created = await createCustomer(owner.auth, { first_name: 'Secretina' });
    await api('POST', `${customerPath(created.id)}addresses/`, { auth: owner.auth, body: { line1: 'x' } });
    const live = apiKey(owner.account.liveKey);
    const token = bearer(await tokenFor(owner.account));
    for (const auth of [other.auth, live, token]) {
      // A bearer token without ?test=true acts in live mode.
      const requests = [
        api('GET', customerPath(created.id), { auth }),
        api('PUT', customerPath(created.id), { auth, body: { phone: '1' } }),
        api('DELETE', customerPath(created.id), { auth }),
        putPhoto(auth, created.id, png()),
        api('GET', `${customerPath(created.id)}addresses/`, { auth }),
        api('POST', `${customerPath(created.id)}addresses/`, { auth, body: { line1: 'y' } }),
        api('DELETE', `${customerPath(created.id)}addresses/00000000-0000-4000-8000-000000000000/`, { auth }),
      ];
      for (const answer of await Promise.all(requests)) expect(answer.status, answer.text).toBe(404);
      expect((await api('GET', `${customersPath}?search=secretina`, { auth })).status).toBe(404);
      const list = await api('GET', `${customersPath}?search=secretina&page=1`, { auth });
      expect(list.json.count).toBe(0);
      const all = await api('GET', customersPath, { auth });
      expect(all.json.results.map((c: { id: string }) => c.id)).not.toContain(created.id);
    }
    // The same e-mail is free in the other mode and in the other account.
    expect(
      (await api('POST', customersPath, { auth: live, body: customerBody({ email: created.email }) })).status,
    ).toBe(201);
    expect(
      (await api('POST', customersPath, { auth: other.auth, body: customerBody({ email: created.email }) }))
        .status,
    ).toBe(201);
    // The owner still has it, unchanged, with its address.
    const mine = await api('GET', customerPath(created.id), { auth: basic(owner.account.testKey) });
    expect(mine.json).toEqual(created);
    expect(
      (await api('GET', `${customerPath(created.id)}addresses/`, { auth: owner.auth })).json,
    ).toHaveLength(1);
    expect((await api('GET', `${customerPath(created.id)}?test=true`, { auth: token })).status).toBe(200);
  });
});

describe('the customers checkout creates', () => {
  it('a payer with a 254-character e-mail is searchable by its end; a longer one is refused on the page', async () => {
    const { auth } = await newMerchant('customers-checkout-long');
    const domain = '@long.example.com';
    const email = `${'q'.repeat(254 - domain.length - 6)}tailz${sequence++ % 10}${domain}`;
    expect(email).toHaveLength(254);
    await payThroughCheckout(auth, { card: { email, cardholder_name: 'Long Mail' } });
    // Its 254 suffixes pass one transaction: the rest are written right after the payment's.
    const found = await api('GET', `${customersPath}?search=${encodeURIComponent(`qqtailz`)}`, { auth });
    expect(found.status, found.text).toBe(200);
    expect(found.json.map((c: { email: string }) => c.email)).toEqual([email]);
    const payment = await createPayment(auth);
    const refused = await submitCard(payment.url, { email: `${'r'.repeat(250)}${domain}` });
    expect(refused.status, refused.html).toBe(400);
    // Over its limit: the page says so, and does not show the address again.
    expect(refused.html).toContain('The email address takes at most 254 characters.');
    expect(refused.html).not.toContain('rrrrrrrrrr');
    expect((await api('GET', customersPath, { auth })).json.count).toBe(1);
  });

  it('a cardholder name of 200 characters makes names the API itself would take: cut on a character, never empty', async () => {
    const { auth } = await newMerchant('customers-checkout-names');
    const graphemes = (text: string) => [...new Intl.Segmenter().segment(text)].map((part) => part.segment);
    // Each 200 code points (the form's limit). Cut by UTF-16 units, the first would end in half a
    // surrogate pair, the second in half an emoji with its skin tone, the third in a space; the
    // fourth is one word, so it has no last name to split off; the fifth cuts an accented letter
    // written with a combining accent.
    const names = [
      `a${'𝒜'.repeat(60)} ${'𝒜'.repeat(138)}`,
      `b${'👍🏽'.repeat(60)} ${'c'.repeat(78)}`,
      `${'x'.repeat(49)} ${'y'.repeat(100)} ${'z'.repeat(49)}`,
      'W'.repeat(200),
      `d${'e\u0301'.repeat(70)} ${'f'.repeat(58)}`,
    ];
    for (const [index, name] of names.entries()) {
      expect([...name], name).toHaveLength(200);
      const email = uniqueEmail(`long-name-${index}`);
      await payThroughCheckout(auth, { card: { email, cardholder_name: name } });
      const found = await api('GET', `${customersPath}?search=${encodeURIComponent(email)}`, { auth });
      expect(found.json, found.text).toHaveLength(1);
      const got = await api('GET', customerPath(found.json[0].id), { auth });
      expect(got.status, got.text).toBe(200);
      const { first_name, last_name } = got.json as { first_name: string; last_name: string };
      for (const part of [first_name, last_name]) {
        expect(part.length, name).toBeGreaterThan(0);
        expect(graphemes(part).length, name).toBeLessThanOrEqual(50);
      }
      // What POST /v1/customers/ takes, and takes as it is (nothing left to trim).
      const fields = { first_name, last_name, email: got.json.email, phone: null, country: got.json.country };
      const parsed = v.safeParse(CreateCustomerSchema, fields);
      expect(
        parsed.issues?.map((issue) => issue.message),
        name,
      ).toBeUndefined();
      expect(parsed.output).toMatchObject(fields);
      // Cut at the limit, on a character: the start of the name's first words, and of its last.
      const words = name.split(' ');
      const typedFirst = words.length > 1 ? words.slice(0, -1).join(' ') : name;
      const typedLast = words.at(-1) as string;
      expect(graphemes(typedFirst).slice(0, 50).join('').trimEnd(), name).toBe(first_name);
      expect(graphemes(typedLast).slice(0, 50).join(''), name).toBe(last_name);
    }
  });

  it('a payer who pays twice with one e-mail is one customer, listed and found by search like any other', async () => {
    const { auth } = await newMerchant('customers-checkout');
    const email = uniqueEmail('Payer');
    await payThroughCheckout(auth, { card: { email, cardholder_name: 'Paula Payer' } });
    await payThroughCheckout(auth, { card: { email: email.toUpperCase(), cardholder_name: 'Paula Payer' } });
    const list = await api('GET', customersPath, { auth });
    expect(list.json.count).toBe(1);
    expect(list.json.results[0]).toMatchObject({
      email: email.toLowerCase(),
      first_name: 'Paula',
      last_name: 'Payer',
    });
    const found = await api('GET', `${customersPath}?search=paula`, { auth });
    expect(found.json).toHaveLength(1);
    expect(found.json[0].pay_providers).toEqual([{ id: 'cobro', name: 'cobro hosted checkout' }]);
    // The API sees the same record: the e-mail is taken, and the customer can be updated.
    expect((await api('POST', customersPath, { auth, body: customerBody({ email }) })).status).toBe(400);
    const updated = await api('PUT', customerPath(found.json[0].id), { auth, body: { phone: '555' } });
    expect(updated.json.data.phone).toBe('555');
  });
});
