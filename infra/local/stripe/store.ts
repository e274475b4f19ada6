/**
 * The Stripe stand-in's state: every object it made, by kind and id, with the account and mode that
 * own it. In memory; with a state file, loaded at start and written after every change (a temporary
 * file renamed over the old one, so a crash never leaves half a file).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type Stripe from 'stripe';
import { randomToken } from '../../../shared/core/ids.ts';
import type { CardBehaviour } from './cards.ts';

/** An object of one account and mode (a key of the other mode never sees it). */
export interface Owned<T> {
  account: string;
  livemode: boolean;
  /** Order of making, for lists (newest first) where `created` seconds tie. */
  seq: number;
  object: T;
}

export interface LineItem {
  name: string;
  currency: string;
  unit_amount: number;
  quantity: number;
}

/** A Checkout Session with what it was made with that Stripe does not show on the session. */
export interface SessionRecord extends Owned<Stripe.Checkout.Session> {
  lineItems: LineItem[];
  paymentIntentData: {
    metadata: Record<string, string>;
    description: string | null;
    setup_future_usage: 'on_session' | 'off_session' | null;
    statement_descriptor: string | null;
    statement_descriptor_suffix: string | null;
  };
  setupIntentData: { metadata: Record<string, string>; description: string | null };
}

/** A card PaymentMethod: its behaviour stands for the number, which is never kept. */
export interface PaymentMethodRecord extends Owned<Stripe.PaymentMethod> {
  behaviour: CardBehaviour;
}

export interface BalanceTransactionRecord extends Owned<Stripe.BalanceTransaction> {
  /** The payout that paid it out, once one has. */
  payout: string | null;
}

export interface WebhookEndpointRecord extends Owned<Stripe.WebhookEndpoint> {
  secret: string;
}

export interface AccountKeys {
  test: string;
  live: string;
  restrictedTest: string;
  restrictedLive: string;
}

export interface AccountRecord {
  seq: number;
  object: Stripe.Account;
  keys: AccountKeys;
}

/** A POST's first answer under an Idempotency-Key. */
export interface IdempotencyRecord {
  account: string;
  livemode: boolean;
  key: string;
  fingerprint: string;
  status: number;
  body: string;
  requestId: string;
  /** Unix seconds (the stand-in's clock): kept 24 h. */
  created: number;
}

/** The collections of Stripe objects, each a map from id to record. */
export interface Collections {
  customers: Map<string, Owned<Stripe.Customer>>;
  checkoutSessions: Map<string, SessionRecord>;
  paymentIntents: Map<string, Owned<Stripe.PaymentIntent>>;
  setupIntents: Map<string, Owned<Stripe.SetupIntent>>;
  paymentMethods: Map<string, PaymentMethodRecord>;
  charges: Map<string, Owned<Stripe.Charge>>;
  refunds: Map<string, Owned<Stripe.Refund>>;
  balanceTransactions: Map<string, BalanceTransactionRecord>;
  payouts: Map<string, Owned<Stripe.Payout>>;
  disputes: Map<string, Owned<Stripe.Dispute>>;
  events: Map<string, Owned<Stripe.Event>>;
  webhookEndpoints: Map<string, WebhookEndpointRecord>;
}

export type CollectionName = keyof Collections;

/** Which collection an id's prefix puts it in, and the object name Stripe's errors use for it. */
const kinds: readonly { prefix: string; collection: CollectionName; objectName: string }[] = [
  { prefix: 'cus_', collection: 'customers', objectName: 'customer' },
  { prefix: 'cs_', collection: 'checkoutSessions', objectName: 'checkout.session' },
  { prefix: 'pi_', collection: 'paymentIntents', objectName: 'payment_intent' },
  { prefix: 'seti_', collection: 'setupIntents', objectName: 'setup_intent' },
  { prefix: 'pm_', collection: 'paymentMethods', objectName: 'payment_method' },
  { prefix: 'ch_', collection: 'charges', objectName: 'charge' },
  { prefix: 're_', collection: 'refunds', objectName: 'refund' },
  { prefix: 'txn_', collection: 'balanceTransactions', objectName: 'balance_transaction' },
  { prefix: 'po_', collection: 'payouts', objectName: 'payout' },
  { prefix: 'dp_', collection: 'disputes', objectName: 'dispute' },
  { prefix: 'evt_', collection: 'events', objectName: 'event' },
  { prefix: 'we_', collection: 'webhookEndpoints', objectName: 'webhook_endpoint' },
];

/** What Stripe's errors call an object of `collection` ("No such checkout.session: …"). */
export function objectNameOf(collection: CollectionName): string {
  return kinds.find((kind) => kind.collection === collection)?.objectName ?? collection;
}

/** The collection an id belongs in by its prefix, if any. */
export function kindOf(id: string) {
  return kinds.find((kind) => id.startsWith(kind.prefix));
}

/** A random id in Stripe's shape: `pi_` and 24 characters; a Checkout Session's is longer and says its mode. */
export function newId(prefix: string, livemode?: boolean): string {
  if (prefix === 'cs') return `cs_${livemode ? 'live' : 'test'}_a1${randomToken(56)}`;
  return `${prefix}_${randomToken(24)}`;
}

interface StateFile {
  version: 1;
  seq: number;
  clockOffset: number;
  accounts: AccountRecord[];
  idempotency: IdempotencyRecord[];
  collections: Record<CollectionName, unknown[]>;
}

const collectionNames: readonly CollectionName[] = kinds.map((kind) => kind.collection);

export class Store {
  readonly accounts = new Map<string, AccountRecord>();
  readonly collections: Collections = {
    customers: new Map(),
    checkoutSessions: new Map(),
    paymentIntents: new Map(),
    setupIntents: new Map(),
    paymentMethods: new Map(),
    charges: new Map(),
    refunds: new Map(),
    balanceTransactions: new Map(),
    payouts: new Map(),
    disputes: new Map(),
    events: new Map(),
    webhookEndpoints: new Map(),
  };
  /** By `JSON.stringify([account, livemode, key])`. */
  readonly idempotency = new Map<string, IdempotencyRecord>();
  #seq = 0;
  /** Seconds added to the real clock (POST /_standin/clock): how a test lets a session expire. */
  #clockOffset = 0;
  #dirty = false;
  readonly #file: string | undefined;

  constructor(file?: string) {
    this.#file = file;
    if (file) this.#load(file);
  }

  /** Unix seconds on the stand-in's clock. */
  now(): number {
    return Math.floor(Date.now() / 1000) + this.#clockOffset;
  }

  advanceClock(seconds: number): number {
    this.#clockOffset += seconds;
    this.changed();
    return this.now();
  }

  /** The next number in making order. */
  nextSeq(): number {
    this.#seq += 1;
    this.changed();
    return this.#seq;
  }

  /** Adds an object to its collection. */
  add<K extends CollectionName>(collection: K, record: Parameters<Collections[K]['set']>[1]): void {
    const id = (record.object as { id: string }).id;
    (this.collections[collection] as Map<string, typeof record>).set(id, record);
    this.changed();
  }

  /** Marks the state as changed: the next save() writes it. */
  changed(): void {
    this.#dirty = true;
  }

  /** Writes the state file if anything changed since the last write. */
  save(): void {
    if (!this.#file || !this.#dirty) return;
    const file: StateFile = {
      version: 1,
      seq: this.#seq,
      clockOffset: this.#clockOffset,
      accounts: [...this.accounts.values()],
      idempotency: [...this.idempotency.values()],
      collections: Object.fromEntries(
        collectionNames.map((name) => [name, [...this.collections[name].values()]]),
      ) as Record<CollectionName, unknown[]>,
    };
    mkdirSync(dirname(this.#file), { recursive: true });
    const temporary = `${this.#file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, JSON.stringify(file), { mode: 0o600 });
    renameSync(temporary, this.#file);
    this.#dirty = false;
  }

  #load(path: string): void {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // first start
      throw error;
    }
    const file = JSON.parse(text) as StateFile;
    if (file.version !== 1) throw new Error(`${path}: unknown Stripe stand-in state version ${file.version}`);
    this.#seq = file.seq;
    this.#clockOffset = file.clockOffset;
    for (const account of file.accounts) this.accounts.set(account.object.id, account);
    for (const record of file.idempotency) {
      this.idempotency.set(JSON.stringify([record.account, record.livemode, record.key]), record);
    }
    for (const name of collectionNames) {
      const map = this.collections[name] as Map<string, Owned<{ id: string }>>;
      for (const record of (file.collections[name] ?? []) as Owned<{ id: string }>[]) {
        map.set(record.object.id, record);
      }
    }
  }
}
