/**
 * One rule for what a request's shape means, the same on every route: no body is an empty object
 * (a create names the fields it needs, an update changes nothing and answers 200), a body that is
 * not an object is 400 naming `body`, a blank `test=` is refused like any unreadable mode, and a
 * page number that is not a whole number of at least 1 says so.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { errorFields, expect400 } from '../support/answers.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';
import { api, type Merchant, newMerchant } from '../support/stack.ts';

let shop: Merchant;
let receiver: Receiver;
/** One record of each kind an update (PUT) takes, by its path. */
const records: Record<string, string> = {};

beforeAll(async () => {
  [shop, receiver] = await Promise.all([newMerchant('request-shapes'), startReceiver()]);
  const created = async (path: string, body: unknown) => {
    const answer = await api('POST', path, { auth: shop.auth, body });
    expect(answer.status, answer.text).toBe(201);
    return answer.json.data;
  };
  const plan = await created('/v1/plans/', {
    name: 'Basic',
    amount: '19.90',
    currency: 'USD',
    interval: 'month',
    interval_count: 1,
  });
  records['/v1/plans/'] = plan.id;
  records['/v1/customers/'] = (
    await created('/v1/customers/', { first_name: 'Ana', last_name: 'Ruiz', email: 'ana@example.com' })
  ).id;
  records['/v1/products/'] = (await created('/v1/products/', { name: 'Mug', price: '5.00' })).id;
  records['/v1/payment-links/'] = (
    await created('/v1/payment-links/', { description: 'Mug', amount: '5.00' })
  ).id;
  records['/v1/webhook-endpoints/'] = (
    await created('/v1/webhook-endpoints/', { url: `${receiver.url}/shapes` })
  ).id;
});

const updatable = [
  '/v1/plans/',
  '/v1/customers/',
  '/v1/products/',
  '/v1/payment-links/',
  '/v1/webhook-endpoints/',
];

describe('the shape of a request', () => {
  it('a PUT without a body changes nothing and answers 200 on every resource', async () => {
    for (const path of updatable) {
      const answer = await api('PUT', `${path}${records[path]}/`, { auth: shop.auth });
      expect(answer.status, `${path}: ${answer.text}`).toBe(200);
    }
  });

  it('a PUT whose body is not an object is 400 naming the body, on every resource', async () => {
    for (const path of updatable) {
      for (const rawBody of ['[null,null]', '"x"', '12', 'null']) {
        const answer = await api('PUT', `${path}${records[path]}/`, {
          auth: shop.auth,
          rawBody,
          headers: { 'Content-Type': 'application/json' },
        });
        expect400(answer);
        expect(errorFields(answer), `${path} ${rawBody}: ${answer.text}`).toEqual(['body']);
      }
    }
  });

  it('a create without a body names the fields it needs', async () => {
    const answer = await api('POST', '/v1/plans/', { auth: shop.auth });
    expect400(answer);
    expect(errorFields(answer)).toEqual(expect.arrayContaining(['name', 'amount', 'currency', 'interval']));
  });

  it('a blank test= is refused like any other value that names no mode', async () => {
    for (const query of ['test=', 'test=maybe']) {
      const answer = await api('GET', `/v1/products/?${query}`, { auth: shop.auth });
      expect400(answer, 'The test parameter must be true or false.');
    }
  });

  it('a page number that is negative, zero or fractional says what a page number is', async () => {
    for (const page of ['-130', '0', '1.5', 'x']) {
      const answer = await api('GET', `/v1/plans/?page=${page}`, { auth: shop.auth });
      expect400(answer, 'page must be a whole number of at least 1.');
    }
  });
});
