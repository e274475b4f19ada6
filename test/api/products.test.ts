/**
 * Taxes and products through the local gateway: multipart forms with files that must arrive
 * byte-exact, every validation error the API documents for them, prices at their currency's
 * precision, image flags end to end, total prices, list filters, deactivation, and isolation
 * between accounts and modes.
 */
import { describe, expect, it } from 'vitest';
import { makeDeps } from '../../shared/db/deps.ts';
import { getProductForLink } from '../../shared/products/repository.ts';
import { errorFields, expect400, expectEnvelope, expectMessage, expectReplayed } from '../support/answers.ts';
import { jpeg, png } from '../support/images.ts';
import {
  api,
  apiKey,
  apiUrl,
  bearer,
  newMerchant,
  suiteMerchant,
  tokenFor,
  useLocalEnvironment,
} from '../support/stack.ts';

const productsPath = '/v1/products/';
const productPath = (id: string) => `/v1/products/${id}/`;
type Field = string | Buffer | { bytes: Buffer; type?: string; filename?: string };

/** A multipart request; a field given several values repeats. */
async function multipart(
  method: string,
  path: string,
  auth: string,
  fields: Record<string, Field | Field[]>,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (typeof one === 'string') form.append(name, one);
      else {
        const file = Buffer.isBuffer(one) ? { bytes: one } : one;
        form.append(
          name,
          new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }),
          file.filename ?? 'file.bin',
        );
      }
    }
  }
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { Authorization: auth, ...headers },
    body: form,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths
    json: JSON.parse(text) as Record<string, any>,
  };
}

const create = (auth: string, fields: Record<string, Field | Field[]>) =>
  multipart('POST', productsPath, auth, { name: 'Mug', price: '10.00', ...fields });

async function createProduct(auth: string, fields: Record<string, Field | Field[]> = {}) {
  const response = await create(auth, fields);
  expect(response.status, response.text).toBe(201);
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths
  return response.json.data as Record<string, any> & { id: string };
}

async function createTax(auth: string, name: string, value: string | number) {
  const response = await api('POST', '/v1/taxes/', { auth, body: { name, value } });
  expect(response.status, response.text).toBe(201);
  return response.json.data as { id: number; name: string; value: number };
}

const bytesAt = async (url: string) => {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  return { type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
};

const productKeys = [
  'bar_code',
  'created_on',
  'currency',
  'description',
  'id',
  'images',
  'is_physical',
  'name',
  'payment_link',
  'price',
  'recurrence',
  'short_description',
  'sku',
  'stock',
  'taxes',
  'test',
  'total_price',
];

describe('taxes', () => {
  it('POST answers 201 with an integer id; GET lists the account’s taxes of the mode, newest first', async () => {
    const { auth, account } = await newMerchant('taxes');
    const vat = await api('POST', '/v1/taxes/', { auth, body: { name: 'IVA', value: '13' } });
    expectMessage(vat, 201, { type: 'success', title: 'Tax created' });
    expect(vat.json.data).toMatchObject({ name: 'IVA', value: 13, test: true });
    expect(Number.isInteger(vat.json.data.id)).toBe(true);
    const city = await createTax(auth, 'City', 2.5);
    expect(city.id).toBeGreaterThan(vat.json.data.id);
    expect((await api('GET', '/v1/taxes/', { auth })).json.map((t: { id: number }) => t.id)).toEqual([
      city.id,
      vat.json.data.id,
    ]);
    for (const value of ['101', '-1', 'abc', '1.23456']) {
      expect(
        errorFields(await api('POST', '/v1/taxes/', { auth, body: { name: 'x', value } })),
        value,
      ).toEqual(['value']);
    }
    expect(errorFields(await api('POST', '/v1/taxes/', { auth, body: { value: 1 } }))).toEqual(['name']);
    // Other mode, other account: not listed.
    expect((await api('GET', '/v1/taxes/', { auth: apiKey(account.liveKey) })).json).toEqual([]);
    expect((await api('GET', '/v1/taxes/', { auth: (await newMerchant('taxes-other')).auth })).json).toEqual(
      [],
    );
  });
});

describe('POST /v1/products/ and GET /v1/products/{id}/', () => {
  const shop = suiteMerchant('products-create');

  it('creates with every field and images; the answer and GET show the product; images serve the same bytes', async () => {
    const vat = await createTax(shop.auth, 'IVA', '13');
    const cover = png();
    const extras = [jpeg(), png()];
    const response = await create(shop.auth, {
      name: 'Ceramic mug',
      short_description: 'A mug',
      description: 'A large ceramic mug for coffee.',
      price: '10.00',
      currency: 'usd',
      stock: '25',
      is_physical: 'true',
      bar_code: '7501234567890',
      sku: 'MUG-001',
      taxes: String(vat.id),
      recurrence: '{"recurrence":"period","duration_period":3}',
      image_default: { bytes: cover, type: 'image/png', filename: 'cover.png' },
      images: extras.map((bytes) => ({ bytes, type: 'image/jpeg' })),
    });
    expectMessage(response, 201, { type: 'success', title: 'Product created' });
    const product = response.json.data;
    expect(Object.keys(product).sort()).toEqual(productKeys);
    expect(product).toMatchObject({
      name: 'Ceramic mug',
      short_description: 'A mug',
      description: 'A large ceramic mug for coffee.',
      price: '10.00',
      currency: 'USD',
      total_price: '11.30',
      stock: 25,
      is_physical: true,
      bar_code: '7501234567890',
      sku: 'MUG-001',
      taxes: [{ id: vat.id, name: 'IVA', value: 13 }],
      recurrence: { recurrence: 'period', duration_period: 3 },
      payment_link: false,
      test: true,
    });
    expect(product.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await bytesAt(product.images.default)).bytes.equals(cover)).toBe(true);
    expect(product.images.additional_images).toHaveLength(2);
    for (const [i, extra] of product.images.additional_images.entries()) {
      const served = await bytesAt(extra.image);
      expect(served.bytes.equals(extras[i] as Buffer), `image ${i}`).toBe(true);
    }
    expect((await bytesAt(product.images.additional_images[0].image)).type).toBe('image/jpeg');
    const got = await api('GET', productPath(product.id), { auth: shop.auth });
    expect(got.json).toEqual(product);
  });

  it('defaults: USD, stock 0, digital, no taxes, no recurrence, no images; JSON bodies are taken too', async () => {
    const product = await createProduct(shop.auth, { name: 'Ebook', price: '5' });
    expect(product).toMatchObject({
      currency: 'USD',
      price: '5.00',
      total_price: '5.00',
      stock: 0,
      is_physical: false,
      taxes: [],
      recurrence: null,
      images: { default: null, additional_images: [] },
    });
    const json = await api('POST', productsPath, {
      auth: shop.auth,
      body: {
        name: 'Json',
        price: 7,
        stock: 3,
        is_physical: true,
        recurrence: { recurrence: 'specific_billing_day', payday: 15 },
      },
    });
    expect(json.status, json.text).toBe(201);
    expect(json.json.data).toMatchObject({
      price: '7.00',
      stock: 3,
      is_physical: true,
      recurrence: { recurrence: 'specific_billing_day', payday: 15 },
    });
  });

  it('every supported currency at its precision: JPY and CLP 0 decimals, KWD 3, more is 400 type danger', async () => {
    const ok: [string, string, string][] = [
      ['JPY', '1000', '1000'],
      ['CLP', '2500', '2500'],
      ['KWD', '1.500', '1.500'],
      ['KWD', '2.5', '2.500'],
      ['EUR', '9.99', '9.99'],
      ['GBP', '1', '1.00'],
      ['CRC', '5000.50', '5000.50'],
      ['MXN', '100.10', '100.10'],
      ['COP', '20000', '20000.00'],
    ];
    for (const [currency, price, shown] of ok) {
      const product = await createProduct(shop.auth, { currency, price });
      expect(product.price, `${currency} ${price}`).toBe(shown);
      expect(product.currency).toBe(currency);
    }
    for (const [currency, price] of [
      ['JPY', '10.5'],
      ['CLP', '1.0'],
      ['KWD', '1.5000'],
      ['USD', '10.505'],
    ] as const) {
      const refused = await create(shop.auth, { currency, price });
      expectMessage(refused, 400, { type: 'danger' });
    }
    expect(errorFields(await create(shop.auth, { currency: 'XXX' }))).toEqual(['currency']);
    expect(errorFields(await create(shop.auth, { price: 'ten' }))).toEqual(['price']);
  });

  it('total_price is price × (100 + Σ tax percents) / 100, rounded half-up once', async () => {
    const { auth } = await newMerchant('products-total');
    const a = await createTax(auth, 'A', '13');
    const b = await createTax(auth, 'B', '2.5');
    const half = await createTax(auth, 'Half', '5');
    expect((await createProduct(auth, { price: '10.00', taxes: `${a.id},${b.id}` })).total_price).toBe(
      '11.55',
    );
    // 0.10 × 1.05 = 0.105 → 0.11 (half-up), not 0.10.
    expect((await createProduct(auth, { price: '0.10', taxes: String(half.id) })).total_price).toBe('0.11');
    expect(
      (await createProduct(auth, { price: '999', currency: 'JPY', taxes: String(a.id) })).total_price,
    ).toBe('1129');
  });

  it('every validation row: recurrence, duration_period, payday, taxes, names and lengths, images', async () => {
    const rows: [Record<string, Field | Field[]>, string[] | string][] = [
      [{ recurrence: 'not json' }, 'recurrence must be a JSON object.'],
      [{ recurrence: '[1,2]' }, 'recurrence must be a JSON object.'],
      [{ recurrence: '"period"' }, 'recurrence must be a JSON object.'],
      [{ recurrence: '{"recurrence":"period","duration_period":5}' }, ['recurrence.duration_period']],
      [{ recurrence: '{"recurrence":"period"}' }, ['recurrence.duration_period']],
      [{ recurrence: '{"recurrence":"specific_billing_day","payday":29}' }, ['recurrence.payday']],
      [{ recurrence: '{"recurrence":"specific_billing_day","payday":0}' }, ['recurrence.payday']],
      [{ recurrence: '{"recurrence":"weekly"}' }, ['recurrence.recurrence']],
      [{ taxes: '999999' }, ['taxes']],
      [{ taxes: 'a,b' }, ['taxes']],
      [{ name: 'x'.repeat(51) }, ['name']],
      [{ short_description: 'x'.repeat(101) }, ['short_description']],
      [{ description: 'x'.repeat(301) }, ['description']],
      [{ stock: '-1' }, ['stock']],
      [{ stock: '1.5' }, ['stock']],
      [{ is_physical: 'maybe' }, ['is_physical']],
      [{ colour: 'red' }, ['colour']],
      [
        { image_default: { bytes: Buffer.from('plain text, not an image'), type: 'image/png' } },
        ['image_default'],
      ],
      [{ images: [png(), png(), png(), png(), png()] }, ['images']],
    ];
    for (const [fields, expected] of rows) {
      const answer = await create(shop.auth, fields);
      expect(answer.status, `${JSON.stringify(Object.keys(fields))}: ${answer.text}`).toBe(400);
      if (typeof expected === 'string') expect(answer.json.content).toBe(expected);
      else expect(errorFields(answer as never)).toEqual(expected);
    }
    const missing = await multipart('POST', productsPath, shop.auth, { stock: '1' });
    expect(errorFields(missing as never)).toEqual(['name', 'price']);
    // A PNG labelled image/jpeg is a PNG: the content decides.
    const relabelled = await createProduct(shop.auth, {
      image_default: { bytes: png(), type: 'image/jpeg', filename: 'x.jpg' },
    });
    expect(relabelled.images.default).toMatch(/\.png$/);
    const list = await api('GET', `${productsPath}?search=${'x'.repeat(51)}`, { auth: shop.auth });
    expect(list.json.count).toBe(0);
    for (const duration of [1, 2, 3, 4, 6, 12]) {
      const product = await createProduct(shop.auth, {
        recurrence: JSON.stringify({ recurrence: 'period', duration_period: duration }),
      });
      expect(product.recurrence.duration_period).toBe(duration);
    }
    for (const payday of [1, 28]) {
      const product = await createProduct(shop.auth, {
        recurrence: JSON.stringify({ recurrence: 'specific_billing_day', payday }),
      });
      expect(product.recurrence.payday).toBe(payday);
    }
  });

  it('an Idempotency-Key replays a multipart create with its image, and refuses another body under the key (409)', async () => {
    const image = png();
    const key = { 'Idempotency-Key': `product-${Date.now()}` };
    const fields = { name: 'Once', price: '3.00', image_default: image };
    const first = await multipart('POST', productsPath, shop.auth, fields, key);
    const replay = await multipart('POST', productsPath, shop.auth, fields, key);
    expectReplayed(first as never, replay as never, 201);
    const other = await multipart('POST', productsPath, shop.auth, { ...fields, image_default: png() }, key);
    expect(other.status).toBe(409);
    expect((await api('GET', `${productsPath}?search=once`, { auth: shop.auth })).json.count).toBe(1);
  });

  it('a malformed or unknown id is 404 with the documented "product not found" text', async () => {
    for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
      expectEnvelope(await api('GET', productPath(id), { auth: shop.auth }), 404, {
        title: 'Product not found',
        content: 'The id does not correspond to any product.',
        type: 'error',
      });
    }
  });
});

describe('PUT /v1/products/{id}/', () => {
  const shop = suiteMerchant('products-update');

  it('changes only the fields given; answers id, name, description, price, stock, total_price', async () => {
    const tax = await createTax(shop.auth, 'IVA', '10');
    const product = await createProduct(shop.auth, {
      name: 'Old',
      description: 'Before',
      stock: '5',
      sku: 'OLD-1',
    });
    const response = await multipart('PUT', productPath(product.id), shop.auth, {
      name: 'New',
      price: '20.00',
      taxes: String(tax.id),
      payment_link: 'true',
    });
    expectEnvelope(response, 200, {
      title: 'Product updated',
      content: 'The product was updated.',
      type: 'success',
      data: {
        id: product.id,
        name: 'New',
        description: 'Before',
        price: '20.00',
        stock: 5,
        total_price: '22.00',
      },
    });
    const got = (await api('GET', productPath(product.id), { auth: shop.auth })).json;
    expect(got).toMatchObject({
      name: 'New',
      sku: 'OLD-1',
      payment_link: true,
      taxes: [{ id: tax.id, value: 10 }],
    });
    expect(
      (await api('GET', `${productsPath}?search=new`, { auth: shop.auth })).json.results.map(
        (p: { id: string }) => p.id,
      ),
    ).toContain(product.id);
    expect((await api('GET', `${productsPath}?search=old-1`, { auth: shop.auth })).json.count).toBe(1);
    const renamedSku = await multipart('PUT', productPath(product.id), shop.auth, { sku: 'FRESH-9' });
    expect(renamedSku.status).toBe(200);
    expect((await api('GET', `${productsPath}?search=old-1`, { auth: shop.auth })).json.count).toBe(0);
  });

  it('checks the price against the resulting currency (400 danger) and mode flags; 404 for unknown ids', async () => {
    const product = await createProduct(shop.auth, { price: '10.50' });
    expectMessage(await multipart('PUT', productPath(product.id), shop.auth, { currency: 'JPY' }), 400, {
      type: 'danger',
    });
    const yen = await multipart('PUT', productPath(product.id), shop.auth, {
      currency: 'JPY',
      price: '1500',
    });
    expect(yen.json.data.price).toBe('1500');
    expect400(await multipart('PUT', productPath(product.id), shop.auth, { test: 'false' }));
    expect(
      errorFields(
        (await multipart('PUT', productPath(product.id), shop.auth, {
          recurrence: '{"recurrence":"period","duration_period":7}',
        })) as never,
      ),
    ).toEqual(['recurrence.duration_period']);
    expect(
      (await multipart('PUT', productPath('00000000-0000-4000-8000-000000000000'), shop.auth, { name: 'x' }))
        .status,
    ).toBe(404);
  });

  it('image flags: -1 keeps, -remove- removes, files replace (new URLs serving the new bytes); a fifth is 400', async () => {
    const cover = png();
    const extras = [png(), png()];
    const product = await createProduct(shop.auth, { image_default: cover, images: extras });
    const view = async () => (await api('GET', productPath(product.id), { auth: shop.auth })).json;
    const before = await view();

    expect(
      (
        await multipart('PUT', productPath(product.id), shop.auth, {
          default: '-1',
          additional_images: '-1',
          stock: '9',
        })
      ).status,
    ).toBe(200);
    expect((await view()).images).toEqual(before.images);

    const newCover = jpeg();
    const replaced = await multipart('PUT', productPath(product.id), shop.auth, {
      default: { bytes: newCover, type: 'image/jpeg' },
    });
    expect(replaced.status, replaced.text).toBe(200);
    const afterCover = await view();
    expect(afterCover.images.default).not.toBe(before.images.default);
    expect((await bytesAt(afterCover.images.default)).bytes.equals(newCover)).toBe(true);
    expect(afterCover.images.additional_images).toEqual(before.images.additional_images);

    const newExtras = [png(), jpeg(), png()];
    expect(
      (await multipart('PUT', productPath(product.id), shop.auth, { additional_images: newExtras })).status,
    ).toBe(200);
    const afterExtras = await view();
    expect(afterExtras.images.additional_images).toHaveLength(3);
    for (const [i, extra] of afterExtras.images.additional_images.entries()) {
      expect((await bytesAt(extra.image)).bytes.equals(newExtras[i] as Buffer)).toBe(true);
    }

    const tooMany = await multipart('PUT', productPath(product.id), shop.auth, {
      additional_images: [png(), png(), png(), png(), png()],
    });
    expect(errorFields(tooMany as never)).toEqual(['additional_images']);
    expect(
      errorFields((await multipart('PUT', productPath(product.id), shop.auth, { default: 'keep' })) as never),
    ).toEqual(['default']);
    expect((await view()).images).toEqual(afterExtras.images);

    expect(
      (
        await multipart('PUT', productPath(product.id), shop.auth, {
          default: '-remove-',
          additional_images: '-remove-',
        })
      ).status,
    ).toBe(200);
    expect((await view()).images).toEqual({ default: null, additional_images: [] });
  });
});

describe('GET /v1/products/ (Envelope A)', () => {
  it('filters by search (name or SKU), type, stock and price ranges, combined, and pages', async () => {
    const { auth } = await newMerchant('products-list');
    const ids: Record<string, string> = {};
    const rows: [string, Record<string, string>][] = [
      ['mug', { name: 'Blue Mug', sku: 'KIT-001', price: '10.00', stock: '5', is_physical: 'true' }],
      ['ebook', { name: 'Cooking ebook', sku: 'BK-77', price: '15.00', stock: '0' }],
      ['pan', { name: 'Iron pan', sku: 'KIT-002', price: '40.00', stock: '12', is_physical: 'true' }],
      [
        'yen',
        { name: 'Tea cup', sku: 'KIT-003', price: '1200', currency: 'JPY', stock: '3', is_physical: 'true' },
      ],
    ];
    for (const [label, fields] of rows) ids[label] = (await createProduct(auth, fields)).id;
    const list = async (query: string) => {
      const answer = await api('GET', `${productsPath}${query}`, { auth });
      expect(answer.status, `${query}: ${answer.text}`).toBe(200);
      return answer.json;
    };
    const labels = async (query: string) =>
      (await list(query)).results.map((p: { id: string }) => Object.keys(ids).find((k) => ids[k] === p.id));
    const all = await list('');
    expect(Object.keys(all).sort()).toEqual(['count', 'current_page', 'results', 'total_pages']);
    expect(all.count).toBe(4);
    expect(await labels('')).toEqual(['yen', 'pan', 'ebook', 'mug']);
    expect(await labels('?search=kit-')).toEqual(['yen', 'pan', 'mug']);
    expect(await labels('?search=MUG')).toEqual(['mug']);
    expect(await labels('?type=digital')).toEqual(['ebook']);
    expect(await labels('?type=physical&stock_min=4')).toEqual(['pan', 'mug']);
    expect(await labels('?stock_max=3')).toEqual(['yen', 'ebook']);
    expect(await labels('?price_min=10&price_max=40')).toEqual(['pan', 'ebook', 'mug']);
    expect(await labels('?search=kit&price_max=20')).toEqual(['mug']);
    expect(await labels('?price_min=1000')).toEqual(['yen']);
    const none = await list('?search=zzz');
    expect(none).toEqual({ count: 0, current_page: 1, total_pages: 0, results: [] });
    const paged = await list('?page=2&page_size=3');
    expect(paged).toMatchObject({ count: 4, current_page: 2, total_pages: 2 });
    expect(paged.results).toHaveLength(1);
    expect((await api('GET', `${productsPath}?page=3&page_size=3`, { auth })).status).toBe(404);
    expect((await list('?page_size=500')).results).toHaveLength(4);
    for (const bad of ['type=both', 'stock_min=x', 'price_max=-1', 'page=0']) {
      expect((await api('GET', `${productsPath}?${bad}`, { auth })).status, bad).toBe(400);
    }
  });
});

describe('DELETE /v1/products/{id}/', () => {
  it('deactivates: 404 after, out of list and search; the stored product still reads for payment links', async () => {
    const { auth, account } = await newMerchant('products-delete');
    const kept = await createProduct(auth, { name: 'Keeper' });
    const gone = await createProduct(auth, { name: 'Goner', sku: 'GONE-1' });
    expectEnvelope(await api('DELETE', productPath(gone.id), { auth }), 200, {
      title: 'Product deleted',
      content: 'The product was removed and deactivated; payment links that name it keep working.',
      type: 'success',
    });
    expect((await api('GET', productPath(gone.id), { auth })).status).toBe(404);
    expect((await api('DELETE', productPath(gone.id), { auth })).status).toBe(404);
    expect((await multipart('PUT', productPath(gone.id), auth, { name: 'back' })).status).toBe(404);
    const list = (await api('GET', productsPath, { auth })).json;
    expect(list.count).toBe(1);
    expect(list.results.map((p: { id: string }) => p.id)).toEqual([kept.id]);
    expect((await api('GET', `${productsPath}?search=gone`, { auth })).json.count).toBe(0);
    useLocalEnvironment();
    const stored = await getProductForLink(
      makeDeps(),
      { developerId: account.developerId, mode: 'test' },
      gone.id,
    );
    expect(stored).toMatchObject({ id: gone.id, name: 'Goner', active: false });
  });
});

describe('isolation: another account or mode sees an absent record', () => {
  it('another account and the other mode get 404 on every verb and never see the products or taxes', async () => {
    const owner = await newMerchant('products-owner');
    const other = await newMerchant('products-other');
    const tax = await createTax(owner.auth, 'Mine', '5');
    const product = await createProduct(owner.auth, { name: 'Secretware', sku: 'SEC-1' });
    const live = apiKey(owner.account.liveKey);
    const token = bearer(await tokenFor(owner.account));
    for (const auth of [other.auth, live, token]) {
      expect((await api('GET', productPath(product.id), { auth })).status).toBe(404);
      expect((await multipart('PUT', productPath(product.id), auth, { name: 'x' })).status).toBe(404);
      expect((await api('DELETE', productPath(product.id), { auth })).status).toBe(404);
      const searched = await api('GET', `${productsPath}?search=secret`, { auth });
      expect(searched.json.count).toBe(0);
      expect(
        (await api('GET', productsPath, { auth })).json.results.map((p: { id: string }) => p.id),
      ).not.toContain(product.id);
      expect((await api('GET', '/v1/taxes/', { auth })).json.map((t: { id: number }) => t.id)).not.toContain(
        tax.id,
      );
      // Another account's (or mode's) tax id is unknown here.
      expect(errorFields((await create(auth, { taxes: String(tax.id) })) as never)).toEqual(['taxes']);
    }
    expect((await api('GET', productPath(product.id), { auth: owner.auth })).json.name).toBe('Secretware');
  });
});
