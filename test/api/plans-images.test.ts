/**
 * Plan images through the local gateway: a data URI stored and served under /media at the configured
 * base URL, an https URL kept as given, a replacement, a bad image refused, an unknown name 404.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expect400 } from '../support/answers.ts';
import { hostileRequest } from '../support/hostile.ts';
import {
  countOf,
  createPlan,
  dataUri,
  getPlan,
  list,
  planBody,
  planPath,
  plansPath,
  tinyJpeg,
  tinyPng,
} from '../support/plans.ts';
import { api, apiKey, apiUrl, newAccount, newMerchant } from '../support/stack.ts';
import { storedEventItems } from '../support/table.ts';

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
