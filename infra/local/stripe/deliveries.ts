/**
 * Webhook delivery as Stripe does it: each event POSTed as JSON to every endpoint of its account and
 * mode that takes its type, signed `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" with the endpoint's secret>`, after the API's answer is written, and retried a few
 * times with a short backoff on a non-2xx answer or a connection error. Every attempt is recorded
 * for the control API.
 */
import { createHmac } from 'node:crypto';
import type Stripe from 'stripe';
import type { Owned, Store } from './store.ts';

export interface DeliveryAttempt {
  event: string;
  type: string;
  account: string;
  livemode: boolean;
  endpoint: string;
  url: string;
  /** 1 for the first try. */
  attempt: number;
  /** The receiver's HTTP status; null when it could not be reached. */
  status: number | null;
  error: string | null;
  at: string;
}

/** The signature header Stripe sends with `body` at `timestamp` (unix seconds). */
export function signatureHeader(body: string, secret: string, timestamp: number): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

// Kept short: a local stack's receiver is either up or a test wants to see the retry soon.
const defaultRetryDelaysMs = [250, 1000, 3000];
const attemptTimeoutMs = 10_000;
// The attempts kept for the control API, newest last.
const keptAttempts = 5000;

export class Deliveries {
  readonly #store: Store;
  readonly #retryDelaysMs: readonly number[];
  readonly #attempts: DeliveryAttempt[] = [];
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<AbortController>();
  #stopped = false;

  constructor(store: Store, retryDelaysMs: readonly number[] = defaultRetryDelaysMs) {
    this.#store = store;
    this.#retryDelaysMs = retryDelaysMs;
  }

  /**
   * Sends `event` to every enabled endpoint of its account and mode whose `enabled_events` has its
   * type or `*` (only to `endpointId` when given), counting them in its `pending_webhooks`; answers
   * the endpoints' ids. Nothing is sent before the current request's answer is written.
   */
  deliver(event: Owned<Stripe.Event>, endpointId?: string): string[] {
    const endpoints = [...this.#store.collections.webhookEndpoints.values()].filter(
      (endpoint) =>
        endpoint.account === event.account &&
        endpoint.livemode === event.livemode &&
        endpoint.object.status === 'enabled' &&
        (endpoint.object.enabled_events.includes('*') ||
          endpoint.object.enabled_events.includes(event.object.type as never)) &&
        (endpointId === undefined || endpoint.object.id === endpointId),
    );
    if (endpoints.length === 0) return [];
    event.object.pending_webhooks += endpoints.length;
    this.#store.changed();
    for (const endpoint of endpoints) this.#schedule(event.object.id, endpoint.object.id, 1, 0);
    return endpoints.map((endpoint) => endpoint.object.id);
  }

  /** The attempts so far, oldest first. */
  attempts(): DeliveryAttempt[] {
    return this.#attempts.map((attempt) => ({ ...attempt }));
  }

  /** Cancels the retries still waiting and aborts the attempts under way. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort();
  }

  #schedule(eventId: string, endpointId: string, attempt: number, delayMs: number): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(eventId, endpointId, attempt);
    }, delayMs);
    this.#timers.add(timer);
  }

  async #attempt(eventId: string, endpointId: string, attempt: number): Promise<void> {
    const event = this.#store.collections.events.get(eventId);
    const endpoint = this.#store.collections.webhookEndpoints.get(endpointId);
    // An endpoint deleted (or disabled) since stops receiving, as at Stripe.
    if (!event || !endpoint || endpoint.object.status !== 'enabled') return;
    // Stripe sends its events pretty-printed; receivers must verify the body as received.
    const body = JSON.stringify(event.object, null, 2);
    // The real clock, never the stand-in's: receivers check the timestamp against their own.
    const timestamp = Math.floor(Date.now() / 1000);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), attemptTimeoutMs);
    this.#inFlight.add(controller);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(endpoint.object.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': signatureHeader(body, endpoint.secret, timestamp),
        },
        body,
        redirect: 'manual',
        signal: controller.signal,
      });
      status = response.status;
      await response.arrayBuffer();
    } catch (failure) {
      error = (failure as Error).cause ? String((failure as Error).cause) : (failure as Error).message;
    } finally {
      clearTimeout(timer);
      this.#inFlight.delete(controller);
    }
    if (this.#stopped) return;
    this.#attempts.push({
      event: eventId,
      type: event.object.type,
      account: event.account,
      livemode: event.livemode,
      endpoint: endpointId,
      url: endpoint.object.url,
      attempt,
      status,
      error,
      at: new Date().toISOString(),
    });
    if (this.#attempts.length > keptAttempts) this.#attempts.splice(0, this.#attempts.length - keptAttempts);
    if (status !== null && status >= 200 && status < 300) {
      event.object.pending_webhooks = Math.max(0, event.object.pending_webhooks - 1);
      this.#store.changed();
      this.#store.save();
      return;
    }
    const delay = this.#retryDelaysMs[attempt - 1];
    if (delay !== undefined) this.#schedule(eventId, endpointId, attempt + 1, delay);
  }
}
