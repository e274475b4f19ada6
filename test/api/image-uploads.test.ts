/**
 * Every way an image reaches cobro (a plan's data URI, a product's files, a customer's photo) takes
 * only a whole PNG or JPEG within the pixel limits: an image header followed by HTML, an image with
 * HTML after its end, and a decompression bomb are 400 in the message envelope naming the field, and
 * nothing is stored (no record changes, no object in the media bucket).
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxImagePixels, maxImageSide } from '../../shared/media/structure.ts';
import { type Answer, errorFields, expect400 } from '../support/answers.ts';
import { html, jpeg, png, pngBomb, pngSignature } from '../support/images.ts';
import { api, apiUrl, type Merchant, newMerchant } from '../support/stack.ts';

let shop: Merchant;
beforeAll(async () => {
  shop = await newMerchant('image-uploads');
});

/** The hostile files, each with what its 400 says. */
const hostile = () => [
  {
    name: 'a PNG signature followed by HTML',
    bytes: Buffer.concat([pngSignature, html]),
    says: /not a whole/,
  },
  { name: 'a whole PNG with HTML after it', bytes: Buffer.concat([png(), html]), says: /bytes follow IEND/ },
  { name: 'a whole JPEG with HTML after it', bytes: Buffer.concat([jpeg(), html]), says: /bytes follow EOI/ },
  { name: 'a 20,000 × 20,000 PNG bomb', bytes: pngBomb(), says: /20000 × 20000.*40 megapixels/ },
  { name: 'a 20,000 × 20,000 JPEG', bytes: jpeg({ width: 20_000, height: 20_000 }), says: /20000 × 20000/ },
];

/** Whether the media bucket holds an object of these bytes (objects are named by their SHA-256). */
async function stored(bytes: Buffer, extension: 'png' | 'jpg') {
  const name = `${createHash('sha256').update(bytes).digest('hex')}.${extension}`;
  return (await fetch(`${apiUrl}/media/${name}`)).status !== 404;
}
const extensionOf = (bytes: Buffer) => (bytes[0] === 0x89 ? 'png' : 'jpg');

function expectImageRefused(answer: Answer, field: string, says: RegExp) {
  expect400(answer);
  expect(errorFields(answer)).toEqual([field]);
  expect(answer.json.content).toMatch(says);
}

async function multipart(method: string, path: string, fields: Record<string, string | Buffer>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob([value], { type: 'image/png' }), 'upload.png');
  }
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers: { Authorization: shop.auth },
    body: form,
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths
  return { status: response.status, text, json: JSON.parse(text) as Record<string, any> };
}

describe('hostile images are refused everywhere, and nothing is stored', () => {
  it('a plan image given as a data URI', async () => {
    for (const { name, bytes, says } of hostile()) {
      const type = extensionOf(bytes) === 'png' ? 'image/png' : 'image/jpeg';
      const image = `data:${type};base64,${bytes.toString('base64')}`;
      const body = {
        name: 'Gold',
        currency: 'USD',
        amount: '10.50',
        interval: 'month',
        interval_count: 1,
        image,
      };
      const answer = await api('POST', '/v1/plans/', { auth: shop.auth, body });
      expectImageRefused(answer, 'image', says);
      expect(await stored(bytes, extensionOf(bytes)), name).toBe(false);
    }
    expect((await api('GET', '/v1/plans/', { auth: shop.auth })).json.count).toBe(0);
  });

  it("a product's default and additional images", async () => {
    for (const { name, bytes, says } of hostile()) {
      const cover = await multipart('POST', '/v1/products/', {
        name: 'Mug',
        price: '10.00',
        image_default: bytes,
      });
      expectImageRefused(cover, 'image_default', says);
      const extra = await multipart('POST', '/v1/products/', { name: 'Mug', price: '10.00', images: bytes });
      expectImageRefused(extra, 'images', says);
      expect(await stored(bytes, extensionOf(bytes)), name).toBe(false);
    }
    expect((await api('GET', '/v1/products/', { auth: shop.auth })).json.count).toBe(0);
  });

  it("a customer's photo", async () => {
    const created = await api('POST', '/v1/customers/', {
      auth: shop.auth,
      body: { first_name: 'Ada', last_name: 'Lovelace', email: `ada-${Date.now()}@example.com` },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data.id as string;
    for (const { name, bytes, says } of hostile()) {
      const answer = await multipart('PUT', `/v1/customers/${id}/photo/`, { photo: bytes });
      expectImageRefused(answer, 'photo', says);
      expect(await stored(bytes, extensionOf(bytes)), name).toBe(false);
    }
    expect((await api('GET', `/v1/customers/${id}/`, { auth: shop.auth })).json.photo).toBeNull();
  });

  it('takes the largest picture allowed, and says the limits when one is over', async () => {
    const side = Math.floor(Math.sqrt(maxImagePixels));
    const largest = jpeg({ width: side, height: side });
    const product = await multipart('POST', '/v1/products/', {
      name: 'Big',
      price: '1.00',
      image_default: largest,
    });
    expect(product.status, product.text).toBe(201);
    expect(await stored(largest, 'jpg')).toBe(true);
    const wide = await multipart('POST', '/v1/products/', {
      name: 'Wide',
      price: '1.00',
      image_default: jpeg({ width: maxImageSide + 1, height: 1 }),
    });
    expectImageRefused(wide, 'image_default', new RegExp(`${maxImageSide} pixels a side`));
  });
});
