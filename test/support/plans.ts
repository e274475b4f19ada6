/**
 * The plans resource as its tests (test/api/plans*.test.ts) call it: a valid create body, a plan made,
 * read and listed, what a list answered, and the images a plan may carry.
 */
import { expect } from 'vitest';
import { jpeg, png } from './images.ts';
import { api } from './stack.ts';

export const plansPath = '/v1/plans/';
export const planPath = (id: string) => `/v1/plans/${id}/`;
export const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const formType = { 'Content-Type': 'application/x-www-form-urlencoded' };

export const informationKeys = [
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

export type Body = Record<string, unknown>;

/** A valid create body, changed by `overrides`. */
export const planBody = (overrides: Body = {}): Body => ({
  name: 'Gold',
  currency: 'USD',
  amount: '10.50',
  interval: 'month',
  interval_count: 1,
  ...overrides,
});

/** Creates a plan and answers its key; fails the test unless the answer is 201. */
export async function createPlan(auth: string, overrides: Body = {}, query = ''): Promise<string> {
  const response = await api('POST', `${plansPath}${query}`, { auth, body: planBody(overrides) });
  expect(response.status, response.text).toBe(201);
  return response.json.data.id as string;
}

export async function getPlan(auth: string, id: string, query = '') {
  return api('GET', `${planPath(id)}${query}`, { auth });
}

export async function list(auth: string, query = '') {
  return api('GET', `${plansPath}${query ? `?${query}` : ''}`, { auth });
}

/** The `count` of the unfiltered list (200 expected). */
export async function countOf(auth: string, query = ''): Promise<number> {
  const response = await list(auth, query);
  expect(response.status, response.text).toBe(200);
  return response.json.count as number;
}

/** Keys of a list answer's results, in answer order. */
export const keysOf = (response: { json: Record<string, unknown> }) =>
  (response.json.results as { key: string }[]).map((plan) => plan.key);

/** Names of a list answer's results, in answer order. */
export const namesOf = (response: { json: Record<string, unknown> }) =>
  (response.json.results as { information: { name: string } }[]).map((plan) => plan.information.name);

/** A 1×1 RGB PNG, whole to its last CRC: the same bytes at every call. */
export const tinyPng = () => png({ seed: 'plan image' });

/** A 1×1 JPEG, whole from SOI to EOI. */
export const tinyJpeg = () => jpeg();

export const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
