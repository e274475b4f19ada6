/**
 * The plans list through the local gateway: Envelope A, paging, the page size and the filters.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { expect400 } from '../support/answers.ts';
import {
  type Body,
  createPlan,
  informationKeys,
  keysOf,
  list,
  namesOf,
  planPath,
  uuidV4,
} from '../support/plans.ts';
import { api, apiKey, newAccount, newMerchant } from '../support/stack.ts';

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
