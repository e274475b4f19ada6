/** What every operation of the stand-in works in: one account and mode, and the request behind it. */
import type Stripe from 'stripe';
import { noSuch } from './errors.ts';
import { example } from './fixtures.ts';
import {
  type AccountRecord,
  type Collections,
  newId,
  type Owned,
  objectNameOf,
  type Store,
} from './store.ts';

/** The API version the stand-in answers in when a request names none (stripe 23.1.0's own). */
export const defaultApiVersion = '2026-10-28.endive';

export interface RequestInfo {
  /** `req_…` of an API request; null for what the payer's page or the control API did. */
  id: string | null;
  idempotency_key: string | null;
}

export interface Context {
  store: Store;
  account: AccountRecord;
  livemode: boolean;
  request: RequestInfo;
  apiVersion: string;
  /** Where the stand-in's Checkout pages are reached from a browser. */
  publicUrl: string;
  /** A `refuse` fault hit this call: the operation refuses definitely, moving nothing. */
  refuse: boolean;
  /** Hands an event to webhook delivery (after the answer is written). */
  deliver(event: Owned<Stripe.Event>): void;
}

type StoredOf<K extends keyof Collections> = NonNullable<ReturnType<Collections[K]['get']>>;

/** The object `id` of this key's account and mode, if there is one. */
export function find<K extends keyof Collections>(
  ctx: Context,
  collection: K,
  id: string,
): StoredOf<K> | undefined {
  const record = ctx.store.collections[collection].get(id) as StoredOf<K> | undefined;
  if (!record || record.account !== ctx.account.object.id || record.livemode !== ctx.livemode)
    return undefined;
  return record;
}

/** The object `id`, or Stripe's "No such …" (404 for an id in the path, 400 naming `param`). */
export function get<K extends keyof Collections>(
  ctx: Context,
  collection: K,
  id: string,
  param?: string,
): StoredOf<K> {
  const record = find(ctx, collection, id);
  if (record) return record;
  throw noSuch(objectNameOf(collection), id, param);
}

/** A new object's ownership and place in making order. */
export function owned<T>(ctx: Context, object: T): Owned<T> {
  return { account: ctx.account.object.id, livemode: ctx.livemode, seq: ctx.store.nextSeq(), object };
}

/**
 * Records an event of `type` about `object` (a snapshot of it as it is now) and hands it to
 * delivery.
 */
export function emit(ctx: Context, type: string, object: { id: string }): Owned<Stripe.Event> {
  const event = example<Stripe.Event>('event');
  Object.assign(event, {
    id: newId('evt'),
    type,
    created: ctx.store.now(),
    livemode: ctx.livemode,
    api_version: ctx.apiVersion,
    data: { object: structuredClone(object) },
    pending_webhooks: 0,
    request: { id: ctx.request.id, idempotency_key: ctx.request.idempotency_key },
  });
  const record = owned(ctx, event);
  ctx.store.add('events', record);
  ctx.deliver(record);
  return record;
}
