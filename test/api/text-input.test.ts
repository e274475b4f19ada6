/**
 * Text a request gives is well-formed Unicode without control characters (tab and line breaks only
 * in multi-line text such as descriptions), and URLs are http(s) URLs the WHATWG parser reads,
 * without spaces, quotes or control characters: anything else is a 400 in the validation shape that
 * stores nothing, so every list stays readable by strict JSON parsers (jq). The review stored
 * `"first_name":"a\ud800b"` and a plan image with quotes in it.
 */
import { describe, expect, it } from 'vitest';
import { errorFields, expect400 } from '../support/answers.ts';
import { api, suiteMerchant } from '../support/stack.ts';

let sequence = 0;
const uniqueEmail = () => `text-${process.pid}-${Date.now()}-${++sequence}@example.com`;

/** Text no strict JSON reader or terminal should meet: a lone surrogate, NUL, ESC, a C1 control. */
const badText = ['a\ud800b', 'b\udc00', 'nul\u0000x', 'esc\u001b[31m', 'c1\u0085'];

/** Whether an answer's JSON text holds a lone surrogate (as jq refuses it) or a control escape. */
function strictlyReadable(text: string): boolean {
  const parsed = JSON.parse(text) as unknown;
  const strings: string[] = [];
  JSON.stringify(parsed, (_key, value: unknown) => {
    if (typeof value === 'string') strings.push(value);
    return value;
  });
  return strings.every((value) => value.isWellFormed() && !/(?![\t\n\r])\p{Cc}/u.test(value));
}

/** Asserts a 400 naming exactly `field`, with `message`'s words. */
function expectFieldProblem(answer: Parameters<typeof expect400>[0], field: string, message: RegExp) {
  expect400(answer);
  expect(errorFields(answer)).toEqual([field]);
  expect(answer.json.data.errors[0].message).toMatch(message);
}

describe('text fields of the API', () => {
  const merchant = suiteMerchant('text-input');

  it('customers: malformed text or control characters in any field are 400 and store nothing', async () => {
    const before = await api('GET', '/v1/customers/', { auth: merchant.auth });
    for (const text of badText) {
      for (const field of ['first_name', 'last_name', 'phone', 'country']) {
        const body = { first_name: 'Ada', last_name: 'Lovelace', email: uniqueEmail(), [field]: text };
        const answer = await api('POST', '/v1/customers/', { auth: merchant.auth, body });
        expectFieldProblem(answer, field, /well-formed text|one line of text/);
      }
    }
    // One line means no tab or line break in a name either.
    const tabbed = await api('POST', '/v1/customers/', {
      auth: merchant.auth,
      body: { first_name: 'A\tda', last_name: 'L', email: uniqueEmail() },
    });
    expectFieldProblem(tabbed, 'first_name', /^first_name must be one line of text/);
    // A form body decodes %00 to NUL: refused the same way.
    const form = await api('POST', '/v1/customers/', {
      auth: merchant.auth,
      rawBody: `first_name=a%00b&last_name=L&email=${encodeURIComponent(uniqueEmail())}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expectFieldProblem(form, 'first_name', /one line of text/);
    const after = await api('GET', '/v1/customers/', { auth: merchant.auth });
    expect(after.json.count).toBe(before.json.count);
  });

  it('customers: metadata keys are one line, its values may have line breaks but no other control', async () => {
    const create = (metadata: unknown) =>
      api('POST', '/v1/customers/', {
        auth: merchant.auth,
        body: { first_name: 'Meta', last_name: 'Data', email: uniqueEmail(), metadata },
      });
    expectFieldProblem(await create({ note: 'a\u0000b' }), 'metadata', /control characters/);
    expectFieldProblem(await create({ 'a\nb': 'x' }), 'metadata', /one line of text/);
    expectFieldProblem(await create({ deep: [{ x: '\ud800' }] }), 'metadata', /well-formed text/);
    const kept = await create({ note: 'line one\nline two\ttabbed' });
    expect(kept.status, kept.text).toBe(201);
    expect(kept.json.data.metadata).toEqual({ note: 'line one\nline two\ttabbed' });
  });

  it('customers: a search with a control character is 400', async () => {
    const answer = await api('GET', '/v1/customers/?search=a%00b', { auth: merchant.auth });
    expectFieldProblem(answer, 'search', /one line of text/);
  });

  it('plans: names are one line; descriptions take line breaks but no other control', async () => {
    const create = (fields: Record<string, unknown>) =>
      api('POST', '/v1/plans/', {
        auth: merchant.auth,
        body: {
          name: 'Text',
          currency: 'USD',
          amount: '9.90',
          interval: 'month',
          interval_count: 1,
          ...fields,
        },
      });
    for (const text of badText)
      expectFieldProblem(await create({ name: text }), 'name', /well-formed|one line/);
    expectFieldProblem(await create({ name: 'Two\nlines' }), 'name', /one line of text/);
    expectFieldProblem(await create({ description: 'a\u0000b' }), 'description', /control characters/);
    expectFieldProblem(await create({ description: 'a\ud800' }), 'description', /well-formed text/);
    expectFieldProblem(await create({ currency: 'US\u0000D' }), 'currency', /one line of text/);
    const kept = await create({ description: 'First line\nsecond line' });
    expect(kept.status, kept.text).toBe(201);
    const plan = await api('GET', `/v1/plans/${kept.json.data.id}/`, { auth: merchant.auth });
    expect(plan.json.information.description).toBe('First line\nsecond line');
  });

  it('plans: an image URL is an http(s) URL without quotes, spaces or control characters, kept as parsed', async () => {
    const create = (image: string) =>
      api('POST', '/v1/plans/', {
        auth: merchant.auth,
        body: { name: 'Image', currency: 'USD', amount: '9.90', interval: 'month', interval_count: 1, image },
      });
    for (const image of [
      'https://img.example/"onerror="alert(1)',
      "https://img.example/it's.png",
      'https://img.example/a b.png',
      'https://img.example/a\u0000.png',
      'javascript:alert(1)',
      'https://user:pw@img.example/a.png',
      `https://img.example/${'a'.repeat(2048)}`,
    ]) {
      // A control character is refused as text before it is read as a URL.
      expectFieldProblem(await create(image), 'image', /http\(s\) URL of an image|one line of text/);
    }
    const kept = await create('https://IMG.example/plans/gold.png?v=2');
    expect(kept.status, kept.text).toBe(201);
    const plan = await api('GET', `/v1/plans/${kept.json.data.id}/`, { auth: merchant.auth });
    expect(plan.json.information.image).toBe('https://img.example/plans/gold.png?v=2');
    const updated = await api('PUT', `/v1/plans/${kept.json.data.id}/`, {
      auth: merchant.auth,
      body: { image: 'https://img.example/"x' },
    });
    expectFieldProblem(updated, 'image', /http\(s\) URL of an image/);
  });

  it('payments: description, items and return_url are refused when malformed, and the list stays readable', async () => {
    const payment = {
      amount: '10.00',
      description: 'Text',
      currency: 'USD',
      items: ['One'],
      return_url: 'http://shop.example/done',
    };
    const before = await api('GET', '/v1/payments/', { auth: merchant.auth });
    const create = (fields: Record<string, unknown>) =>
      api('POST', '/v1/payments/', { auth: merchant.auth, body: { ...payment, ...fields } });
    for (const text of badText) {
      expect((await create({ description: text })).status).toBe(400);
      expectFieldProblem(await create({ items: ['ok', text] }), 'items.1', /well-formed|one line/);
    }
    for (const url of [
      'http://shop.example/"done',
      'http://shop.example/a b',
      'http://shop.example/\u0000',
      'http://shop.example/\ud800',
    ]) {
      expectFieldProblem(
        await create({ return_url: url }),
        'return_url',
        /http\(s\) URL|well-formed|one line/,
      );
    }
    const multiLine = await create({ description: 'Order 12\nTwo mugs' });
    expect(multiLine.status, multiLine.text).toBe(202);
    const after = await api('GET', '/v1/payments/', { auth: merchant.auth });
    expect(after.status).toBe(200);
    expect(strictlyReadable(after.text)).toBe(true);
    expect(after.json).toHaveLength((before.json as unknown as unknown[]).length);
    const one = await api('GET', `/v1/payments/${multiLine.json.data.id_payment}`, { auth: merchant.auth });
    expect(strictlyReadable(one.text)).toBe(true);
    expect(one.json.description).toBe('Order 12\nTwo mugs');
  });

  it('payment links, subscriptions and webhook endpoints refuse the same', async () => {
    const link = await api('POST', '/v1/payment-links/', {
      auth: merchant.auth,
      body: { description: 'a\u0000', amount: '5.00' },
    });
    expectFieldProblem(link, 'description', /control characters/);
    const linkCustomer = await api('POST', '/v1/payment-links/', {
      auth: merchant.auth,
      body: {
        description: 'Link',
        amount: '5.00',
        customers: [{ first_name: 'a\ud800', last_name: 'B', email: uniqueEmail() }],
      },
    });
    expectFieldProblem(linkCustomer, 'customers.0.first_name', /well-formed text/);
    const subscription = await api('POST', '/v1/subscriptions', {
      auth: merchant.auth,
      body: { plan_id: 'x', return_url: 'http://shop.example/"x' },
    });
    expect400(subscription);
    const endpoint = await api('POST', '/v1/webhook-endpoints/', {
      auth: merchant.auth,
      body: { url: 'http://127.0.0.1:9/"hook' },
    });
    expect400(endpoint);
    expect(endpoint.text).toMatch(/without spaces, quotes or control characters/);
    const described = await api('POST', '/v1/webhook-endpoints/', {
      auth: merchant.auth,
      body: { url: 'http://127.0.0.1:9/hook', description: 'esc\u001b' },
    });
    expectFieldProblem(described, 'description', /control characters/);
  });
});
