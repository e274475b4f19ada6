/**
 * Stripe's idempotent requests: a POST's first answer is kept under its Idempotency-Key (per account
 * and mode) for 24 hours with a fingerprint of the request; the same key and request answer it again,
 * the same key with another request is refused. As at Stripe, only an answer of a request that
 * started executing is kept (a success or a card decline), never a refusal of its parameters.
 */
import { createHash } from 'node:crypto';
import { invalidRequest, StripeFailure } from './errors.ts';
import type { IdempotencyRecord, Store } from './store.ts';

const keptSeconds = 24 * 60 * 60;

export const fingerprint = (method: string, path: string, body: string): string =>
  createHash('sha256').update(`${method} ${path}\n${body}`).digest('hex');

const mapKey = (account: string, livemode: boolean, key: string) => JSON.stringify([account, livemode, key]);

/** Reads an Idempotency-Key header, refusing one Stripe would. */
export function readKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || key === '') return undefined;
  if (key.length > 255) throw invalidRequest('Idempotency-Key must be at most 255 characters long.');
  return key;
}

/** The kept answer for this key if the request is the same; Stripe's 400 if it is not. */
export function recall(
  store: Store,
  account: string,
  livemode: boolean,
  key: string,
  print: string,
): IdempotencyRecord | undefined {
  const now = store.now();
  for (const [at, record] of store.idempotency) {
    if (record.created + keptSeconds <= now) {
      store.idempotency.delete(at);
      store.changed();
    }
  }
  const record = store.idempotency.get(mapKey(account, livemode, key));
  if (!record) return undefined;
  if (record.fingerprint !== print)
    throw new StripeFailure(400, {
      type: 'idempotency_error',
      message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
    });
  return record;
}

/** Keeps the answer of a request that executed (2xx, or a 402 decline). */
export function remember(store: Store, record: Omit<IdempotencyRecord, 'created'>): void {
  if (!(record.status >= 200 && record.status < 300) && record.status !== 402) return;
  store.idempotency.set(mapKey(record.account, record.livemode, record.key), {
    ...record,
    created: store.now(),
  });
  store.changed();
}
