/**
 * The plans resource through the local gateway: create, read, update, delete and its e-mail.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { updateProfile } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { expect400, expectEnvelope } from '../support/answers.ts';
import { sentMail, waitForMail } from '../support/mail.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import {
  type Body,
  countOf,
  createPlan,
  formType,
  getPlan,
  informationKeys,
  keysOf,
  list,
  planBody,
  planPath,
  plansPath,
  uuidV4,
} from '../support/plans.ts';
import { concurrently, statusCounts } from '../support/race.ts';
import { isoTime } from '../support/shapes.ts';
import {
  api,
  apiKey,
  basic,
  bearer,
  localInfo,
  newAccount,
  newMerchant,
  suiteMerchant,
  tokenFor,
  useLocalEnvironment,
} from '../support/stack.ts';

describe('POST /v1/plans/ and GET /v1/plans/{id}/', () => {
  const shop = suiteMerchant('plans');

  it('answers 201 with a UUID v4 key, and GET answers the full record', async () => {
    const before = Date.now();
    const response = await api('POST', plansPath, {
      auth: shop.auth,
      body: { name: 'Gold monthly', currency: 'USD', amount: 10.5, interval: 'month', interval_count: 1 },
    });
    expectEnvelope(response, 201, {
      title: 'Plan created',
      content: 'The plan was created.',
      type: 'success',
      data: { id: expect.stringMatching(uuidV4) },
    });
    const id = response.json.data.id as string;

    const got = await getPlan(shop.auth, id);
    expect(got.status).toBe(200);
    expect(Object.keys(got.json).sort()).toEqual(['information', 'key', 'test']);
    expect(got.json.key).toBe(id);
    expect(got.json.test).toBe(true);
    const info = got.json.information;
    expect(Object.keys(info).sort()).toEqual(informationKeys);
    expect(info).toMatchObject({
      name: 'Gold monthly',
      interval: 'month',
      interval_count: 1,
      currency: 'USD',
      amount: '10.50',
      trial_period_days: 0,
      description: '',
      email: shop.account.email,
      company_name: 'Test plans',
      active: true,
      count: 0,
      image: null,
    });
    expect(typeof info.credit_card_description).toBe('string');
    const created = Date.parse(info.created);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    expect(info.created).toMatch(isoTime);
  });

  it.each([
    ['USD from a string', 'USD', '10.5', '10.50'],
    ['USD from a JSON number', 'USD', 10.5, '10.50'],
    ['USD integer', 'USD', 7, '7.00'],
    ['JPY (0 decimals)', 'JPY', 1000, '1000'],
    ['JPY from a string', 'JPY', '1000', '1000'],
    ['KWD (3 decimals)', 'KWD', '1.5', '1.500'],
    ['lower-case currency code', 'usd', '3', '3.00'],
  ])('amount at currency precision: %s', async (_, currency, amount, expected) => {
    const id = await createPlan(shop.auth, { currency, amount });
    const got = await getPlan(shop.auth, id);
    expect(got.status).toBe(200);
    expect(got.json.information.amount).toBe(expected);
    expect(got.json.information.currency).toBe(String(currency).toUpperCase());
  });

  it('keeps the optional fields given', async () => {
    const optional = {
      name: 'Yearly with trial',
      description: 'Billed every two years',
      interval: 'year',
      interval_count: 2,
      trial_period_days: 30,
      currency: 'EUR',
      amount: '99.99',
    };
    const id = await createPlan(shop.auth, optional);
    expect((await getPlan(shop.auth, id)).json.information).toMatchObject(optional);
  });

  it('takes a form-encoded body, integers as text', async () => {
    const response = await api('POST', plansPath, {
      auth: shop.auth,
      rawBody:
        'name=Form+plan&currency=eur&amount=12.30&interval=year&interval_count=2&trial_period_days=7&description=From%20a%20form',
      headers: formType,
    });
    expect(response.status, response.text).toBe(201);
    expect(response.json.data.id).toMatch(uuidV4);
    const { information } = (await getPlan(shop.auth, response.json.data.id)).json;
    expect(information).toMatchObject({
      name: 'Form plan',
      currency: 'EUR',
      amount: '12.30',
      interval: 'year',
      interval_count: 2,
      trial_period_days: 7,
      description: 'From a form',
    });
  });

  it('accepts a 50-character name and a 300-character description', async () => {
    const name = 'n'.repeat(50);
    const description = 'd'.repeat(300);
    const id = await createPlan(shop.auth, { name, description });
    const { information } = (await getPlan(shop.auth, id)).json;
    expect(information.name).toBe(name);
    expect(information.description).toBe(description);
  });

  it('is_test agreeing with the mode is accepted', async () => {
    const id = await createPlan(shop.auth, { is_test: true });
    expect((await getPlan(shop.auth, id)).json.test).toBe(true);
    const live = await createPlan(apiKey(shop.account.liveKey), { is_test: false });
    const got = await getPlan(apiKey(shop.account.liveKey), live);
    expect(got.status).toBe(200);
    expect(got.json.test).toBe(false);
  });

  it('Basic and Bearer (with ?test=true) create test plans too', async () => {
    const token = await tokenFor(shop.account);
    const viaBearer = await createPlan(bearer(token), { name: 'Via bearer' }, '?test=true');
    const viaBasic = await createPlan(basic(shop.account.testKey), { name: 'Via basic' });
    for (const id of [viaBearer, viaBasic]) {
      const got = await getPlan(shop.auth, id);
      expect(got.status).toBe(200);
      expect(got.json.test).toBe(true);
      expect(got.json.information.email).toBe(shop.account.email);
    }
  });
  it('shows the account profile (accounts update) once an operator sets it', async () => {
    const profiled = await newAccount('plan-profile');
    const auth = apiKey(profiled.liveKey);
    const id = await createPlan(auth, { name: 'Profiled' });
    useLocalEnvironment();
    await updateProfile(makeDeps(), profiled.developerId, {
      company_name: 'Acme Payments Ltd',
      page: 'https://acme.example/',
      logo: 'https://acme.example/logo.png',
      statement_descriptor: 'ACME*GOLD',
    });
    const { information } = (await getPlan(auth, id)).json;
    expect(information).toMatchObject({
      email: profiled.email,
      company_name: 'Acme Payments Ltd',
      page: 'https://acme.example/',
      image_dev: 'https://acme.example/logo.png',
      credit_card_description: 'ACME*GOLD',
    });
  });
});

describe('POST /v1/plans/ validation: 400 and nothing stored', () => {
  const shop = suiteMerchant('plan-validation');
  beforeAll(async () => {
    await createPlan(shop.auth, { name: 'Baseline' });
  });

  const without = (field: string) => {
    const body = planBody();
    delete body[field];
    return body;
  };

  it.each([
    ['an empty object', {}, undefined],
    ['no name', without('name'), 'name'],
    ['no currency', without('currency'), 'currency'],
    ['no amount', without('amount'), 'amount'],
    ['no interval', without('interval'), 'interval'],
    ['no interval_count', without('interval_count'), 'interval_count'],
    ['a 51-character name', planBody({ name: 'n'.repeat(51) }), 'name'],
    ['a blank name', planBody({ name: '   ' }), 'name'],
    ['a 301-character description', planBody({ description: 'd'.repeat(301) }), 'description'],
    ['an unknown currency', planBody({ currency: 'XYZ' }), 'currency'],
    ['interval week', planBody({ interval: 'week' }), 'interval'],
    ['interval_count 0', planBody({ interval_count: 0 }), 'interval_count'],
    ['interval_count 1.5', planBody({ interval_count: 1.5 }), 'interval_count'],
    ['trial_period_days -1', planBody({ trial_period_days: -1 }), 'trial_period_days'],
    ['an unknown field', planBody({ color: 'red' }), 'color'],
    ['amount not a number', planBody({ amount: 'ten' }), 'amount'],
    ['amount zero', planBody({ amount: 0 }), 'amount'],
    ['amount "0.00"', planBody({ amount: '0.00' }), 'amount'],
    ['amount negative (number)', planBody({ amount: -5 }), 'amount'],
    ['amount negative (string)', planBody({ amount: '-10.50' }), 'amount'],
    ['a JSON array', [planBody()], undefined],
  ])('%s', async (_, body, field) => {
    const response = await api('POST', plansPath, { auth: shop.auth, body });
    expect400(response);
    if (field) {
      expect(response.json.data.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]),
      );
    }
    expect(await countOf(shop.auth)).toBe(1);
  });

  it('malformed JSON', async () => {
    const response = await api('POST', plansPath, {
      auth: shop.auth,
      rawBody: '{"name": "Gold", "currency": "USD"',
      headers: { 'Content-Type': 'application/json' },
    });
    expect400(response);
    expect(response.json.title).toBe('Malformed JSON');
    expect(await countOf(shop.auth)).toBe(1);
  });

  it('no body at all', async () => {
    expect400(await api('POST', plansPath, { auth: shop.auth }));
    expect(await countOf(shop.auth)).toBe(1);
  });

  it.each([
    ['USD with 3 decimals', 'USD', '10.505'],
    ['USD with 3 decimals as a JSON number', 'USD', 10.505],
    ['JPY with decimals', 'JPY', '1000.5'],
    ['KWD with 4 decimals', 'KWD', '1.5001'],
  ])('precision: %s is type danger "Price validation error"', async (_, currency, amount) => {
    const response = await api('POST', plansPath, { auth: shop.auth, body: planBody({ currency, amount }) });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 400, type: 'danger', title: 'Price validation error' });
    expect(response.json.content).toContain(currency);
    expect(await countOf(shop.auth)).toBe(1);
  });

  it('is_test contradicting the key is 400', async () => {
    expect400(await api('POST', plansPath, { auth: shop.auth, body: planBody({ is_test: false }) }));
    expect(await countOf(shop.auth)).toBe(1);
    const live = apiKey(shop.account.liveKey);
    expect400(await api('POST', plansPath, { auth: live, body: planBody({ is_test: true }) }));
    expect(await countOf(live)).toBe(0);
  });
});

describe('PUT /v1/plans/{id}/', () => {
  const shop = suiteMerchant('plan-update');

  it('changes name, description, trial_period_days and active; GET shows them', async () => {
    const id = await createPlan(shop.auth, { name: 'Before', description: 'old', trial_period_days: 3 });
    const cases: [Body, Body][] = [
      [{ name: 'After' }, { name: 'After' }],
      [{ description: 'new text' }, { description: 'new text' }],
      [{ trial_period_days: 21 }, { trial_period_days: 21 }],
      [{ active: false }, { active: false }],
    ];
    for (const [body, shown] of cases) {
      const response = await api('PUT', planPath(id), { auth: shop.auth, body });
      expectEnvelope(response, 200, {
        title: 'Plan updated',
        content: 'The plan was updated.',
        type: 'success',
        data: id,
      });
      expect((await getPlan(shop.auth, id)).json.information).toMatchObject(shown);
    }
    const inactive = await list(shop.auth, 'status=inactive');
    expect(inactive.status).toBe(200);
    expect(keysOf(inactive)).toEqual([id]);
    const restored = await api('PUT', planPath(id), { auth: shop.auth, body: { active: true } });
    expect(restored.json.type).toBe('success');
    expect((await getPlan(shop.auth, id)).json.information.active).toBe(true);
    const byName = await list(shop.auth, 'name=after');
    expect(keysOf(byName)).toEqual([id]);
  });

  it('racing renames leave the name filter finding the plan by its final name only', async () => {
    const { auth } = await newMerchant('plan-rename-race');
    const id = await createPlan(auth, { name: 'Origin' });
    const names = Array.from({ length: 6 }, (_, i) => `Renamed ${'abcdef'[i]}x`);
    const answers = await concurrently(names.length, (i) =>
      api('PUT', planPath(id), { auth, body: { name: names[i] } }),
    );
    expect(statusCounts(answers)).toEqual({ 200: names.length });
    const final = (await getPlan(auth, id)).json.information.name as string;
    expect(names).toContain(final);
    expect(keysOf(await list(auth, `name=${encodeURIComponent(final)}`))).toEqual([id]);
    for (const name of [...names.filter((n) => n !== final), 'Origin']) {
      expect((await list(auth, `name=${encodeURIComponent(name)}`)).status, name).toBe(400);
    }
    expect(keysOf(await list(auth, 'name=renamed'))).toEqual([id]);
  });

  it('several fields at once, as a form body', async () => {
    const id = await createPlan(shop.auth, { name: 'Form before' });
    const response = await api('PUT', planPath(id), {
      auth: shop.auth,
      rawBody: 'name=Form+after&trial_period_days=5&active=false',
      headers: formType,
    });
    expect(response.status, response.text).toBe(200);
    expect(response.json.type).toBe('success');
    expect((await getPlan(shop.auth, id)).json.information).toMatchObject({
      name: 'Form after',
      trial_period_days: 5,
      active: false,
    });
  });

  it('the same values answer 200 type info "No changes" with the key', async () => {
    const id = await createPlan(shop.auth, { name: 'Same', description: 'kept', trial_period_days: 2 });
    const before = (await getPlan(shop.auth, id)).json;
    for (const body of [
      { name: 'Same', description: 'kept', trial_period_days: 2, active: true },
      { name: 'Same' },
      {},
    ]) {
      const response = await api('PUT', planPath(id), { auth: shop.auth, body });
      expectEnvelope(response, 200, { title: 'No changes', type: 'info', data: id });
    }
    expect((await getPlan(shop.auth, id)).json).toEqual(before);
  });

  it.each([
    ['amount', { amount: '99.00' }],
    ['interval', { interval: 'year' }],
    ['interval_count', { interval_count: 2 }],
    ['currency', { currency: 'EUR' }],
    ['amount with a change that would be allowed', { amount: '10.50', name: 'Sneaky' }],
  ])('a body with %s is 400 and changes nothing', async (_, body) => {
    const id = await createPlan(shop.auth, { name: 'Fixed price' });
    const before = (await getPlan(shop.auth, id)).json;
    expect400(await api('PUT', planPath(id), { auth: shop.auth, body }));
    expect((await getPlan(shop.auth, id)).json).toEqual(before);
  });

  it.each([
    ['a 51-character name', { name: 'n'.repeat(51) }],
    ['an empty name', { name: '' }],
    ['a 301-character description', { description: 'd'.repeat(301) }],
    ['negative trial days', { trial_period_days: -1 }],
    ['an unknown field', { colour: 'blue' }],
    ['active not a boolean', { active: 'maybe' }],
    ['is_test contradicting the key', { is_test: false, name: 'Other' }],
    ['test contradicting the key', { test: false }],
  ])('%s is 400 and changes nothing', async (_, body) => {
    const id = await createPlan(shop.auth, { name: 'Untouched' });
    const before = (await getPlan(shop.auth, id)).json;
    expect400(await api('PUT', planPath(id), { auth: shop.auth, body }));
    expect((await getPlan(shop.auth, id)).json).toEqual(before);
  });

  it('a body that is not an object (JSON null, text, number, array) is 400 and changes nothing', async () => {
    const id = await createPlan(shop.auth, { name: 'Object bodies only' });
    const before = (await getPlan(shop.auth, id)).json;
    for (const raw of ['null', '"text"', '123', '[]', 'true']) {
      const response = await api('PUT', planPath(id), {
        auth: shop.auth,
        rawBody: raw,
        headers: { 'Content-Type': 'application/json' },
      });
      expect400(response);
      expect(response.json.data.errors).toEqual([expect.objectContaining({ field: 'body' })]);
    }
    expect((await getPlan(shop.auth, id)).json).toEqual(before);
  });

  it('is_test agreeing with the mode is accepted', async () => {
    const id = await createPlan(shop.auth, { name: 'Agreeing' });
    const response = await api('PUT', planPath(id), {
      auth: shop.auth,
      body: { is_test: true, name: 'Agreed' },
    });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ type: 'success', data: id });
    expect((await getPlan(shop.auth, id)).json.information.name).toBe('Agreed');
    const live = apiKey(shop.account.liveKey);
    const liveId = await createPlan(live, { name: 'Live agreeing' });
    const liveAnswer = await api('PUT', planPath(liveId), {
      auth: live,
      body: { is_test: false, name: 'L2' },
    });
    expect(liveAnswer.status).toBe(200);
    expect((await getPlan(live, liveId)).json.information.name).toBe('L2');
  });

  it('an unknown id or a non-UUID id is 404', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '12345']) {
      const response = await api('PUT', planPath(id), { auth: shop.auth, body: { name: 'Nobody' } });
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({
        code: 404,
        title: 'Plan not found',
        content: 'The plan does not exist.',
      });
    }
  });

  it('image null removes the image', async () => {
    const url = 'https://images.example.com/plans/gold.png?v=2';
    const id = await createPlan(shop.auth, { name: 'With image', image: url });
    expect((await getPlan(shop.auth, id)).json.information.image).toBe(url);
    const response = await api('PUT', planPath(id), { auth: shop.auth, body: { image: null } });
    expect(response.status).toBe(200);
    expect(response.json.type).toBe('success');
    expect((await getPlan(shop.auth, id)).json.information.image).toBeNull();
    const again = await api('PUT', planPath(id), { auth: shop.auth, body: { image: null } });
    expect(again.json.type).toBe('info');
  });
});

describe('DELETE /v1/plans/{id}/', () => {
  it('answers 200, then GET and a second DELETE are 404, and the count drops', async () => {
    const { auth } = await newMerchant('plan-delete');
    const keep = await createPlan(auth, { name: 'Keep' });
    const gone = await createPlan(auth, { name: 'Gone' });
    expect(await countOf(auth)).toBe(2);
    const response = await api('DELETE', planPath(gone), { auth });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ code: 200, type: 'success', title: 'Plan deleted' });
    const got = await getPlan(auth, gone);
    expect(got.status).toBe(404);
    expect(got.json).toMatchObject({ code: 404, title: 'Plan not found' });
    const again = await api('DELETE', planPath(gone), { auth });
    expect(again.status).toBe(404);
    expect(again.json.code).toBe(404);
    const listed = await list(auth);
    expect(listed.json.count).toBe(1);
    expect(keysOf(listed)).toEqual([keep]);
    expect((await api('PUT', planPath(gone), { auth, body: { name: 'Zombie' } })).status).toBe(404);
  });

  it('an unknown or non-UUID id is 404', async () => {
    const { auth } = await newMerchant('plan-delete-404');
    for (const id of [randomUUID(), 'nope']) {
      const response = await api('DELETE', planPath(id), { auth });
      expect(response.status).toBe(404);
      expect(response.json.code).toBe(404);
    }
  });

  it('deleting every plan leaves an empty list of count 0', async () => {
    const { auth } = await newMerchant('plan-delete-all');
    const ids = [await createPlan(auth), await createPlan(auth)];
    for (const id of ids) expect((await api('DELETE', planPath(id), { auth })).status).toBe(200);
    const response = await list(auth);
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ count: 0, current_page: 1, total_pages: 0, results: [] });
  });

  it('plan.deleted reaches its rule: the account owner gets an e-mail', async () => {
    const account = await newAccount('plan-delete-mail');
    const auth = apiKey(account.liveKey);
    const name = `Doomed ${randomUUID().slice(0, 8)}`;
    const id = await createPlan(auth, { name, currency: 'JPY', amount: 1200 });
    expect((await api('DELETE', planPath(id), { auth })).status).toBe(200);
    const mail = await waitForMail(account.email, `Your cobro plan "${name}" was deleted`);
    expect(mail).toBeDefined();
    expect(mail?.body.text).toContain(id);
    expect(mail?.body.text).toContain('1,200 JPY');
    expect(mail?.body.text).toContain('live');
  });
  it('concurrent DELETEs of one plan: exactly one 200, the rest 404, one e-mail', async () => {
    const { account, auth } = await newMerchant('plan-delete-race');
    const name = `Raced delete ${randomUUID().slice(0, 8)}`;
    const keep = await createPlan(auth, { name: 'Survivor' });
    const id = await createPlan(auth, { name });
    const answers = await concurrently(6, () => api('DELETE', planPath(id), { auth }));
    expect(statusCounts(answers)).toEqual({ 200: 1, 404: 5 });
    const listed = await list(auth);
    expect(listed.json.count).toBe(1);
    expect(keysOf(listed)).toEqual([keep]);
    const subject = `Your cobro plan "${name}" was deleted`;
    expect(await waitForMail(account.email, subject)).toBeDefined();
    // Every plan.deleted stored has reached the e-mail function by now.
    await pipelineDrained(localInfo, account.developerId);
    expect((await sentMail()).filter((email) => email.subject === subject)).toHaveLength(1);
  });
});
