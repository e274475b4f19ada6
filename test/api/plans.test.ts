/**
 * The plans resource through the local gateway: create, read, list (Envelope A, paging, filters),
 * update, delete and its e-mail, isolation between accounts and modes, images under /media, and
 * Idempotency-Key.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { updateProfile } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { expect400, expectEnvelope, expectMessage, expectReplayed } from '../support/answers.ts';
import { hostileRequest } from '../support/hostile.ts';
import { jpeg, png } from '../support/images.ts';
import { sentMail, waitForMail } from '../support/mail.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import { concurrently, statusCounts } from '../support/race.ts';
import { isoTime } from '../support/shapes.ts';
import {
  api,
  apiKey,
  apiUrl,
  basic,
  bearer,
  localInfo,
  newAccount,
  newMerchant,
  suiteMerchant,
  type TestAccount,
  tokenFor,
  useLocalEnvironment,
} from '../support/stack.ts';
import { storedEventItems } from '../support/table.ts';

const plansPath = '/v1/plans/';
const planPath = (id: string) => `/v1/plans/${id}/`;
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const formType = { 'Content-Type': 'application/x-www-form-urlencoded' };

const informationKeys = [
  'name',
  'created',
  'interval',
  'interval_count',
  'currency',
  'amount',
  'trial_period_days',
  'credit_card_description',
  'description',
  'email',
  'company_name',
  'page',
  'active',
  'count',
  'image',
  'image_dev',
].sort();

type Body = Record<string, unknown>;

/** A valid create body, changed by `overrides`. */
const planBody = (overrides: Body = {}): Body => ({
  name: 'Gold',
  currency: 'USD',
  amount: '10.50',
  interval: 'month',
  interval_count: 1,
  ...overrides,
});

/** Creates a plan and answers its key; fails the test unless the answer is 201. */
async function createPlan(auth: string, overrides: Body = {}, query = ''): Promise<string> {
  const response = await api('POST', `${plansPath}${query}`, { auth, body: planBody(overrides) });
  expect(response.status, response.text).toBe(201);
  return response.json.data.id as string;
}

async function getPlan(auth: string, id: string, query = '') {
  return api('GET', `${planPath(id)}${query}`, { auth });
}

async function list(auth: string, query = '') {
  return api('GET', `${plansPath}${query ? `?${query}` : ''}`, { auth });
}

/** The `count` of the unfiltered list (200 expected). */
async function countOf(auth: string, query = ''): Promise<number> {
  const response = await list(auth, query);
  expect(response.status, response.text).toBe(200);
  return response.json.count as number;
}

/** Keys of a list answer's results, in answer order. */
const keysOf = (response: { json: Record<string, unknown> }) =>
  (response.json.results as { key: string }[]).map((plan) => plan.key);

/** Names of a list answer's results, in answer order. */
const namesOf = (response: { json: Record<string, unknown> }) =>
  (response.json.results as { information: { name: string } }[]).map((plan) => plan.information.name);

/** A 1×1 RGB PNG, whole to its last CRC: the same bytes at every call. */
const tinyPng = () => png({ seed: 'plan image' });

/** A 1×1 JPEG, whole from SOI to EOI. */
const tinyJpeg = () => jpeg();

const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

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

describe('GET /v1/plans/: Envelope A and paging', () => {
  let auth: string;
  /** P01 … P12, created in this order. */
  const names = Array.from({ length: 12 }, (_, i) => `P${String(i + 1).padStart(2, '0')}`);
  const newestFirst = [...names].reverse();

  beforeAll(async () => {
    ({ auth } = await newMerchant('plan-pages'));
    for (const name of names) await createPlan(auth, { name });
  });

  it('an account without plans answers 200 with count 0 and total_pages 0', async () => {
    const empty = await newAccount('plan-empty');
    const response = await list(apiKey(empty.testKey));
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ count: 0, current_page: 1, total_pages: 0, results: [] });
    const second = await list(apiKey(empty.testKey), 'page=2');
    expect(second.status).toBe(404);
    expect(second.json.code).toBe(404);
  });

  it('defaults to page 1 of 10, newest first, each result a full plan', async () => {
    const response = await list(auth);
    expect(response.status).toBe(200);
    expect(Object.keys(response.json).sort()).toEqual(['count', 'current_page', 'results', 'total_pages']);
    expect(response.json).toMatchObject({ count: 12, current_page: 1, total_pages: 2 });
    expect(namesOf(response)).toEqual(newestFirst.slice(0, 10));
    const first = response.json.results[0];
    expect(first.key).toMatch(uuidV4);
    expect(first.test).toBe(true);
    expect(Object.keys(first.information).sort()).toEqual(informationKeys);
    expect(first.information.amount).toBe('10.50');
  });

  it('page 2 of the default size holds the last 2', async () => {
    const response = await list(auth, 'page=2');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ count: 12, current_page: 2, total_pages: 2 });
    expect(namesOf(response)).toEqual(newestFirst.slice(10));
  });

  it('page_size 5: pages of 5, 5 and 2; page 4 is 404', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) {
      const response = await list(auth, `page=${page}&page_size=5`);
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ count: 12, current_page: page, total_pages: 3 });
      pages.push(namesOf(response));
    }
    expect(pages).toEqual([newestFirst.slice(0, 5), newestFirst.slice(5, 10), newestFirst.slice(10)]);
    const past = await list(auth, 'page=4&page_size=5');
    expect(past.status).toBe(404);
    expect(past.json).toMatchObject({ code: 404, title: expect.any(String), content: expect.any(String) });
  });

  it('page boundaries: page_size 6 divides 12 exactly, page_size 12 and 11', async () => {
    const six = await list(auth, 'page=2&page_size=6');
    expect(six.json).toMatchObject({ count: 12, current_page: 2, total_pages: 2 });
    expect(namesOf(six)).toEqual(newestFirst.slice(6));
    expect((await list(auth, 'page=3&page_size=6')).status).toBe(404);
    const twelve = await list(auth, 'page_size=12');
    expect(twelve.json.total_pages).toBe(1);
    expect(namesOf(twelve)).toEqual(newestFirst);
    expect((await list(auth, 'page=2&page_size=12')).status).toBe(404);
    const eleven = await list(auth, 'page=2&page_size=11');
    expect(eleven.json).toMatchObject({ count: 12, current_page: 2, total_pages: 2 });
    expect(namesOf(eleven)).toEqual(['P01']);
    const one = await list(auth, 'page=12&page_size=1');
    expect(one.json).toMatchObject({ count: 12, current_page: 12, total_pages: 12 });
    expect(namesOf(one)).toEqual(['P01']);
  });

  it('page_size above 100 is clamped: 1000 answers all 12 on one page', async () => {
    const response = await list(auth, 'page_size=1000');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ count: 12, current_page: 1, total_pages: 1 });
    expect(namesOf(response)).toEqual(newestFirst);
  });

  it('a page number beyond any list is 404, not 400', async () => {
    const response = await list(auth, 'page=99999999999999999999');
    expect(response.status).toBe(404);
    expect(response.json.code).toBe(404);
  });

  it.each([
    'page=0',
    'page=-1',
    'page=abc',
    'page=1.5',
    'page_size=0',
    'page_size=-5',
    'page_size=1.5',
    'page_size=ten',
  ])('%s is 400', async (query) => {
    expect400(await list(auth, query));
  });
});

describe('GET /v1/plans/: page_size is clamped to 100', () => {
  it('page_size=1000 over 105 plans answers 100 and 2 pages', async () => {
    const { auth } = await newMerchant('plan-clamp');
    for (let batch = 0; batch < 105; batch += 15) {
      await Promise.all(
        Array.from({ length: Math.min(15, 105 - batch) }, (_, i) =>
          createPlan(auth, { name: `C${batch + i}` }),
        ),
      );
    }
    const first = await list(auth, 'page_size=1000');
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ count: 105, current_page: 1, total_pages: 2 });
    expect(first.json.results).toHaveLength(100);
    const second = await list(auth, 'page=2&page_size=1000');
    expect(second.json).toMatchObject({ count: 105, current_page: 2, total_pages: 2 });
    expect(second.json.results).toHaveLength(5);
    const keys = new Set([...keysOf(first), ...keysOf(second)]);
    expect(keys.size).toBe(105);
  }, 60_000);
});

describe('GET /v1/plans/: filters', () => {
  let auth: string;
  let ids: Record<string, string>;

  // Created in this order; F is archived afterwards.
  const plans: [string, Body][] = [
    ['A', { name: 'Basic Monthly', currency: 'USD', amount: '10.00', interval: 'month', interval_count: 1 }],
    [
      'B',
      {
        name: 'Pro Monthly',
        currency: 'USD',
        amount: '25.50',
        interval: 'month',
        interval_count: 1,
        trial_period_days: 14,
      },
    ],
    [
      'C',
      {
        name: 'Pro Yearly',
        currency: 'USD',
        amount: '250',
        interval: 'year',
        interval_count: 1,
        trial_period_days: 14,
      },
    ],
    ['D', { name: 'Quarterly BASIC', currency: 'USD', amount: '30', interval: 'month', interval_count: 3 }],
    [
      'E',
      {
        name: 'Team',
        currency: 'JPY',
        amount: '1000',
        interval: 'month',
        interval_count: 1,
        trial_period_days: 7,
      },
    ],
    ['F', { name: 'Gold KWD', currency: 'KWD', amount: '1.5', interval: 'year', interval_count: 2 }],
  ];
  const nameOf = Object.fromEntries(plans.map(([label, body]) => [label, body.name as string]));
  /** Expected names for labels, newest first (creation order reversed). */
  const expected = (labels: string) =>
    plans
      .map(([label]) => label)
      .filter((label) => labels.includes(label))
      .reverse()
      .map((label) => nameOf[label]);

  beforeAll(async () => {
    ({ auth } = await newMerchant('plan-filters'));
    ids = {};
    for (const [label, body] of plans) ids[label] = await createPlan(auth, body);
    const archived = await api('PUT', planPath(ids.F as string), { auth, body: { active: false } });
    expect(archived.status).toBe(200);
  });

  it.each([
    ['name=pro', 'BC'],
    ['name=PRO', 'BC'],
    ['name=monthly', 'AB'],
    ['name=basic', 'AD'],
    ['name=o%20Y', 'C'],
    ['price_min=25.50', 'BCDE'],
    ['price_min=25.5', 'BCDE'],
    ['price_min=25.51', 'CDE'],
    ['price_max=25.50', 'ABF'],
    ['price_max=25.49', 'AF'],
    ['price_min=25.5&price_max=25.5', 'B'],
    ['price_min=1.5', 'ABCDEF'],
    ['price_min=1.501', 'ABCDE'],
    ['price_max=1.5', 'F'],
    ['price_min=10&price_max=30', 'ABD'],
    ['interval=year', 'CF'],
    ['interval=month', 'ABDE'],
    ['interval_count=3', 'D'],
    ['interval_count=2', 'F'],
    ['interval_count=1', 'ABCE'],
    ['subscribers_min=0', 'ABCDEF'],
    ['subscribers_max=0', 'ABCDEF'],
    ['subscribers_min=0&subscribers_max=0', 'ABCDEF'],
    ['trial_days=14', 'BC'],
    ['trial_days=0', 'ADF'],
    ['trial_days=7', 'E'],
    ['status=inactive', 'F'],
    ['status=false', 'F'],
    ['status=active', 'ABCDE'],
    ['status=true', 'ABCDE'],
    ['name=pro&interval=month', 'B'],
    ['name=pro&price_max=100', 'B'],
    ['interval=month&trial_days=0&status=active', 'AD'],
    ['interval=year&status=true', 'C'],
    ['name=basic&interval_count=3&price_min=30&price_max=30&subscribers_max=0', 'D'],
  ])('%s', async (query, labels) => {
    const response = await list(auth, query);
    expect(response.status, response.text).toBe(200);
    const want = expected(labels);
    expect(namesOf(response)).toEqual(want);
    expect(response.json).toMatchObject({ count: want.length, current_page: 1, total_pages: 1 });
  });

  it.each([
    'name=zzz',
    'price_min=1000.001',
    'price_max=1.499',
    'interval_count=4',
    'subscribers_min=1',
    'trial_days=5',
    'name=pro&interval=year&trial_days=0',
    'status=inactive&interval=month',
  ])('%s matches nothing: 400 "The queried plan does not exist."', async (query) => {
    const response = await list(auth, query);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 400, content: 'The queried plan does not exist.' });
  });

  it('price_min above price_max is 400 of type warning', async () => {
    const response = await list(auth, 'price_min=30&price_max=10');
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 400, type: 'warning', title: 'Invalid price range' });
  });

  it('subscribers_min above subscribers_max is 400', async () => {
    const response = await list(auth, 'subscribers_min=2&subscribers_max=1');
    expect400(response);
    expect(response.json.title).toBe('Invalid subscriber range');
  });

  it.each([
    'status=maybe',
    'interval=week',
    'interval_count=abc',
    'interval_count=-1',
    'price_min=abc',
    'price_min=-1',
    'price_max=1.0001',
    'subscribers_min=x',
    'subscribers_max=1.5',
    'trial_days=-3',
  ])('a malformed filter %s is 400, not "no match"', async (query) => {
    const response = await list(auth, query);
    expect400(response);
    expect(response.json.content).not.toBe('The queried plan does not exist.');
  });

  it('filtered results paginate: count is the number of matches', async () => {
    const want = expected('ABCDE');
    const pages = [];
    for (const page of [1, 2, 3]) {
      const response = await list(auth, `status=active&page_size=2&page=${page}`);
      expect(response.status).toBe(200);
      expect(response.json).toMatchObject({ count: 5, current_page: page, total_pages: 3 });
      pages.push(...namesOf(response));
    }
    expect(pages).toEqual(want);
    const past = await list(auth, 'status=active&page_size=2&page=4');
    expect(past.status).toBe(404);
    expect(past.json.code).toBe(404);
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

describe('isolation between accounts and modes', () => {
  let owner: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    [owner, other] = await Promise.all([newAccount('plan-owner'), newAccount('plan-other')]);
  });

  it("another account's plan is 404 to GET, PUT and DELETE and absent from its list", async () => {
    const id = await createPlan(apiKey(owner.testKey), { name: 'Private' });
    const auth = apiKey(other.testKey);
    for (const response of [
      await getPlan(auth, id),
      await api('PUT', planPath(id), { auth, body: { name: 'Hijacked' } }),
      await api('DELETE', planPath(id), { auth }),
    ]) {
      expect(response.status).toBe(404);
      expect(response.json.code).toBe(404);
    }
    const listed = await list(auth);
    expect(listed.status).toBe(200);
    expect(listed.json.count).toBe(0);
    const otherBearer = bearer(await tokenFor(other));
    expect((await getPlan(otherBearer, id, '?test=true')).status).toBe(404);
    expect((await list(auth, 'name=private')).status).toBe(400);
    const still = await getPlan(apiKey(owner.testKey), id);
    expect(still.status).toBe(200);
    expect(still.json.information.name).toBe('Private');
  });

  it('test plans are invisible to the live key and live plans to the test key', async () => {
    const account = await newAccount('plan-modes');
    const test = apiKey(account.testKey);
    const live = apiKey(account.liveKey);
    const testId = await createPlan(test, { name: 'Test only' });
    expect((await getPlan(live, testId)).status).toBe(404);
    expect(await countOf(live)).toBe(0);
    expect((await api('PUT', planPath(testId), { auth: live, body: { name: 'x' } })).status).toBe(404);
    expect((await api('DELETE', planPath(testId), { auth: live })).status).toBe(404);
    const liveId = await createPlan(live, { name: 'Live only' });
    const liveGot = await getPlan(live, liveId);
    expect(liveGot.status).toBe(200);
    expect(liveGot.json.test).toBe(false);
    expect((await getPlan(test, liveId)).status).toBe(404);
    const testList = await list(test);
    expect(testList.json.count).toBe(1);
    expect(keysOf(testList)).toEqual([testId]);
    const liveList = await list(live);
    expect(keysOf(liveList)).toEqual([liveId]);
    expect((await getPlan(test, testId)).json.information.name).toBe('Test only');
  });

  it('a bearer token sees test plans with ?test=true and live plans without it', async () => {
    const account = await newAccount('plan-bearer');
    const token = bearer(await tokenFor(account));
    const testId = await createPlan(apiKey(account.testKey), { name: 'T' });
    const liveId = await createPlan(apiKey(account.liveKey), { name: 'L' });
    expect((await getPlan(token, testId, '?test=true')).status).toBe(200);
    expect((await getPlan(token, testId)).status).toBe(404);
    expect((await getPlan(token, testId, '?test=false')).status).toBe(404);
    expect((await getPlan(token, liveId)).status).toBe(200);
    expect((await getPlan(token, liveId, '?test=true')).status).toBe(404);
    const testList = await list(token, 'test=true');
    expect(keysOf(testList)).toEqual([testId]);
    const liveList = await list(token);
    expect(keysOf(liveList)).toEqual([liveId]);
    const created = await createPlan(token, { name: 'Bearer live' });
    expect((await getPlan(apiKey(account.liveKey), created)).json.test).toBe(false);
  });

  it('a test parameter contradicting the key is 403, one agreeing is accepted', async () => {
    const account = await newAccount('plan-mode-param');
    const test = apiKey(account.testKey);
    const live = apiKey(account.liveKey);
    const id = await createPlan(test);
    const refusals = [
      await list(test, 'test=false'),
      await getPlan(test, id, '?test=false'),
      await api('POST', `${plansPath}?test=false`, { auth: test, body: planBody() }),
      await api('PUT', `${planPath(id)}?test=false`, { auth: test, body: { name: 'x' } }),
      await api('DELETE', `${planPath(id)}?test=false`, { auth: test }),
      await list(live, 'test=true'),
    ];
    for (const response of refusals) {
      expect(response.status).toBe(403);
      expect(response.json.code).toBe(403);
    }
    expect(await countOf(test)).toBe(1);
    expect(await countOf(live)).toBe(0);
    expect((await getPlan(test, id, '?test=true')).status).toBe(200);
    expect((await list(live, 'test=false')).status).toBe(200);
    const malformed = await list(bearer(await tokenFor(account)), 'test=maybe');
    expect400(malformed);
  });
});

describe('plan images', () => {
  let auth: string;
  beforeAll(async () => {
    ({ auth } = await newMerchant('plan-images'));
  });

  async function fetchMedia(url: string) {
    const response = await fetch(url, { headers: { Accept: 'text/html,*/*' } });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      bytes: Buffer.from(await response.arrayBuffer()),
    };
  }

  it.each([
    ['a PNG', 'image/png', tinyPng(), 'png'],
    ['a JPEG', 'image/jpeg', tinyJpeg(), 'jpg'],
  ])('%s data URI is stored and served without credentials, byte for byte', async (_, type, bytes, ext) => {
    const id = await createPlan(auth, { image: dataUri(type, bytes) });
    const { information } = (await getPlan(auth, id)).json;
    const pattern = new RegExp(`^${apiUrl.replace(/[.]/g, '\\.')}/media/[0-9a-f]{64}\\.${ext}$`);
    expect(information.image).toMatch(pattern);
    const served = await fetchMedia(information.image);
    expect(served.status).toBe(200);
    expect(served.type).toBe(type);
    expect(served.bytes.equals(bytes)).toBe(true);
    const listed = await list(auth);
    const entry = listed.json.results.find((plan: { key: string }) => plan.key === id);
    expect(entry.information.image).toBe(information.image);
  });

  it('PUT with a data URI replaces the image with a new URL', async () => {
    const id = await createPlan(auth, { image: 'https://cdn.example.com/a.png' });
    const response = await api('PUT', planPath(id), {
      auth,
      body: { image: dataUri('image/png', tinyPng()) },
    });
    expect(response.status).toBe(200);
    expect(response.json.type).toBe('success');
    const image = (await getPlan(auth, id)).json.information.image as string;
    expect(image).toMatch(/\/media\/[0-9a-f]{64}\.png$/);
    const served = await fetchMedia(image);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(tinyPng())).toBe(true);
  });

  it('an https URL is kept as given', async () => {
    const url = 'https://cdn.example.com/images/plan%20one.jpg?size=large';
    const id = await createPlan(auth, { image: url });
    expect((await getPlan(auth, id)).json.information.image).toBe(url);
  });

  it.each([
    ['a data URI declaring png holding jpeg bytes', dataUri('image/png', tinyJpeg())],
    ['a data URI declaring jpeg holding png bytes', dataUri('image/jpeg', tinyPng())],
    ['image/gif', dataUri('image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'))],
    ['text that is neither a URL nor a data URI', 'not an image'],
    ['a data URI that is not base64', 'data:image/png,plain-text'],
    ['a URL of another scheme', 'ftp://example.com/a.png'],
  ])('%s is 400 and stores nothing', async (_, image) => {
    const before = await countOf(auth);
    const response = await api('POST', plansPath, { auth, body: planBody({ image }) });
    expect400(response);
    expect(response.json.data.errors[0].field).toBe('image');
    expect(await countOf(auth)).toBe(before);
  });

  it('a bad image on PUT is 400 and keeps the old one', async () => {
    const url = 'https://cdn.example.com/keep.png';
    const id = await createPlan(auth, { image: url });
    expect400(await api('PUT', planPath(id), { auth, body: { image: dataUri('image/png', tinyJpeg()) } }));
    expect((await getPlan(auth, id)).json.information.image).toBe(url);
  });

  it('image URLs start with the configured base URL whatever Host and X-Forwarded-Proto say', async () => {
    const account = await newAccount('plan-image-host');
    const headers = { Authorization: apiKey(account.testKey) };
    const id = await createPlan(apiKey(account.testKey), { image: dataUri('image/png', tinyPng()) });
    const pattern = new RegExp(`^${apiUrl.replace(/[.]/g, '\\.')}/media/[0-9a-f]{64}\\.png$`);

    const one = await hostileRequest('GET', planPath(id), { headers });
    expect(one.status, one.text).toBe(200);
    const image = one.json.information.image as string;
    expect(image).toMatch(pattern);
    const listed = await hostileRequest('GET', plansPath, { headers });
    expect(listed.status, listed.text).toBe(200);
    expect(
      listed.json.results.map((plan: { information: { image: string } }) => plan.information.image),
    ).toEqual([image]);

    // plan.deleted carries the plan as it was, image URL included.
    expect((await hostileRequest('DELETE', planPath(id), { headers })).status).toBe(200);
    const stored = await storedEventItems(account.developerId, 'test');
    expect(stored.map((item) => item.detail.type)).toEqual(['plan.deleted']);
    expect(stored[0]?.detail.data.object.information.image).toBe(image);
  });

  it('an unknown media name is 404', async () => {
    const unknown = createHash('sha256').update(randomBytes(32)).digest('hex');
    for (const name of [`${unknown}.png`, `${unknown}.jpg`, 'not-a-hash.png', `${unknown}.gif`]) {
      const response = await fetch(`${apiUrl}/media/${name}`, { headers: { Accept: 'text/html,*/*' } });
      expect(response.status).toBe(404);
      await response.arrayBuffer();
    }
  });
});

describe('Idempotency-Key on POST /v1/plans/', () => {
  const post = (auth: string, key: string, body: Body, query = '') =>
    api('POST', `${plansPath}${query}`, { auth, body, headers: { 'Idempotency-Key': key } });

  it('the same key and body replays the first answer, and only one plan exists', async () => {
    const { auth } = await newMerchant('plan-idem');
    const key = `idem-${randomUUID()}`;
    const body = planBody({ name: 'Once' });
    const first = await post(auth, key, body);
    const second = await post(auth, key, { ...body });
    expectReplayed(first, second, 201);
    expect(second.json.data.id).toBe(first.json.data.id);
    expect(await countOf(auth)).toBe(1);
  });

  it('the same key with another body is 409 and creates nothing', async () => {
    const { auth } = await newMerchant('plan-idem-409');
    const key = `idem-${randomUUID()}`;
    expect((await post(auth, key, planBody({ name: 'First' }))).status).toBe(201);
    const conflict = await post(auth, key, planBody({ name: 'Second' }));
    expectMessage(conflict, 409);
    expect(await countOf(auth)).toBe(1);
    expect(namesOf(await list(auth))).toEqual(['First']);
  });

  it('keys are scoped to the account and the mode', async () => {
    const [a, b] = await Promise.all([newAccount('plan-idem-a'), newAccount('plan-idem-b')]);
    const key = `shared-${randomUUID()}`;
    const body = planBody({ name: 'Scoped' });
    const fromA = await post(apiKey(a.testKey), key, body);
    const fromB = await post(apiKey(b.testKey), key, body);
    const fromALive = await post(apiKey(a.liveKey), key, body);
    for (const answer of [fromA, fromB, fromALive]) {
      expect(answer.status).toBe(201);
      expect(answer.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(new Set([fromA.json.data.id, fromB.json.data.id, fromALive.json.data.id]).size).toBe(3);
    expect(await countOf(apiKey(a.testKey))).toBe(1);
    expect(await countOf(apiKey(b.testKey))).toBe(1);
    expect(await countOf(apiKey(a.liveKey))).toBe(1);
    expect((await getPlan(apiKey(b.testKey), fromB.json.data.id)).status).toBe(200);
  });

  it('within one account and mode the credential does not matter, nor the order of body fields', async () => {
    const account = await newAccount('plan-idem-cred');
    const key = `cred-${randomUUID()}`;
    const first = await post(apiKey(account.testKey), key, planBody({ name: 'Ordered' }));
    expect(first.status).toBe(201);
    const reordered = Object.fromEntries(Object.entries(planBody({ name: 'Ordered' })).reverse());
    const viaBearer = await post(bearer(await tokenFor(account)), key, reordered, '?test=true');
    expect(viaBearer.status).toBe(201);
    expect(viaBearer.headers.get('idempotent-replayed')).toBe('true');
    expect(viaBearer.json.data.id).toBe(first.json.data.id);
    expect(await countOf(apiKey(account.testKey))).toBe(1);
  });

  it('a malformed Idempotency-Key is 400 and creates nothing', async () => {
    const { auth } = await newMerchant('plan-idem-bad');
    for (const key of ['k'.repeat(256), 'has space']) {
      expect400(await post(auth, key, planBody()));
    }
    expect(await countOf(auth)).toBe(0);
  });

  it('a request that failed may be retried with its key', async () => {
    const { auth } = await newMerchant('plan-idem-retry');
    const key = `retry-${randomUUID()}`;
    const failed = await post(auth, key, planBody({ amount: '10.505' }));
    expect(failed.status).toBe(400);
    const again = await post(auth, key, planBody({ amount: '10.505' }));
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const fixed = await post(auth, key, planBody({ amount: '10.50' }));
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    const replay = await post(auth, key, planBody({ amount: '10.50' }));
    expect(replay.status).toBe(201);
    expect(replay.json.data.id).toBe(fixed.json.data.id);
    expect(await countOf(auth)).toBe(1);
  });

  it('10 concurrent requests with one key create exactly one plan', async () => {
    const { auth } = await newMerchant('plan-idem-race');
    const key = `race-${randomUUID()}`;
    const body = planBody({ name: 'Raced' });
    const answers = await concurrently(10, () => post(auth, key, body));
    const statuses = answers.map((answer) => answer.status);
    expect(
      statuses.every((status) => status === 201 || status === 409),
      statuses.join(),
    ).toBe(true);
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.json.data.id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status === 409)) expect(answer.json.code).toBe(409);
    const listed = await list(auth);
    expect(listed.json.count).toBe(1);
    expect(keysOf(listed)).toEqual([created[0]?.json.data.id]);
  });
});

describe('the plan count under concurrency', () => {
  it('20 concurrent creations are all counted', async () => {
    const { auth } = await newMerchant('plan-count-race');
    const answers = await concurrently(20, (i) =>
      api('POST', plansPath, { auth, body: planBody({ name: `Concurrent ${i}` }) }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    const ids = new Set(answers.map((answer) => answer.json.data.id as string));
    expect(ids.size).toBe(20);
    const listed = await list(auth, 'page_size=100');
    expect(listed.json).toMatchObject({ count: 20, current_page: 1, total_pages: 1 });
    expect(new Set(keysOf(listed))).toEqual(ids);
    expect((await list(auth, 'subscribers_min=0')).json.count).toBe(20);
  });
});
