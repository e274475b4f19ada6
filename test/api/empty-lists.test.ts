/**
 * What a list answers when nothing is there or nothing matches, for every list of a fresh account:
 * 200 with `count` 0 (or an empty bare array), whatever the filters. Two answers differ, as existing
 * clients expect them: the plan list with filters that match nothing (400, type warning) and the
 * customer search view (404 with the envelope in `message` and the `query`). A page past the last
 * is 404 on every paged list, but page 1 of an empty list is not past the last.
 */
import { describe, expect, it } from 'vitest';
import { expectMessage } from '../support/answers.ts';
import { api, suiteMerchant } from '../support/stack.ts';

/** Lists of an account that has no records, with filters that could match nothing anyway. */
const emptyLists = [
  '/v1/plans/',
  '/v1/products/',
  '/v1/products/?search=zzqx&type=physical&stock_min=5&price_max=9.00',
  '/v1/payment-links/',
  '/v1/subscriptions/?status=trialing',
  '/v1/customers/',
  '/v1/customers/?search=zzqx&page=1',
  '/v1/customers/?search=zzqx&page_size=5',
  '/v1/events/?type=payment.succeeded',
  '/v1/webhook-endpoints/',
  '/v1/taxes/',
  '/v1/refunds/?charge_id=ch_aaaaaaaaaaaaaaaaaaaaaaaa',
  '/v1/refunds/',
  '/v1/payments/?status=succeeded',
  '/v1/payments/internal',
];

describe('empty lists', () => {
  const shop = suiteMerchant('empty-lists');

  it('every list answers 200 with count 0 or an empty array, filtered or not', async () => {
    for (const path of emptyLists) {
      const response = await api('GET', path, { auth: shop.auth });
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      if (Array.isArray(response.json)) expect(response.json, path).toEqual([]);
      else expect(response.json, path).toMatchObject({ count: 0, results: [] });
    }
  });

  it('the plan list with filters that match nothing is 400 "No plans found", type warning', async () => {
    for (const query of ['name=zzqx', 'interval=year', 'price_min=1.00']) {
      const response = await api('GET', `/v1/plans/?${query}`, { auth: shop.auth });
      expectMessage(response, 400, { title: 'No plans found', type: 'warning' });
    }
  });

  it('the customer search view that finds nothing is 404 with the envelope in `message` and the query', async () => {
    const response = await api('GET', '/v1/customers/?search=zzqx', { auth: shop.auth });
    expect(response.status, response.text).toBe(404);
    expect(response.json).toEqual({
      message: {
        code: 404,
        title: 'No customers found',
        content: expect.any(String),
        type: 'warning',
        query: 'zzqx',
      },
    });
  });

  it('page 1 of an empty list exists; page 2 is past the last (404, type warning)', async () => {
    for (const path of ['/v1/products/', '/v1/payment-links/', '/v1/subscriptions/', '/v1/customers/']) {
      expect((await api('GET', `${path}?page=1`, { auth: shop.auth })).status, path).toBe(200);
      expectMessage(await api('GET', `${path}?page=2`, { auth: shop.auth }), 404, {
        title: 'Invalid page',
        type: 'warning',
      });
    }
  });
});
