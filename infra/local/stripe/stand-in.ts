/**
 * A stateful stand-in of the part of Stripe's API cobro's Stripe connector uses (README.md), as the
 * SES emulator stands in for SES: for tests and `npm start`, which cannot reach Stripe. Test-only:
 * nothing under shared/ or functions/ imports it, and no deployed bundle holds it.
 *
 *   /v1/…        Stripe's API (api-routes.ts), reached with the stripe package pointed here
 *   /pay/:id     the Checkout page a session's `url` names (checkout-page.ts)
 *   /_standin/…  the control API (control-routes.ts), behind the control token
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as v from 'valibot';
import { randomToken } from '../../../shared/core/ids.ts';
import { BodyTooLarge, listenOnLoopback, readBody } from '../server.ts';
import { type ApiRoute, apiRoutes, matchRoute } from './api-routes.ts';
import { expireIfDue, knownEmail, type PayerInput, type PayResult, paySession } from './checkout.ts';
import { checkoutPage, closedPage, missingPage, type PageInput, unavailablePage } from './checkout-page.ts';
import { type Context, defaultApiVersion, type RequestInfo } from './context.ts';
import {
  type ControlDeps,
  ControlFailure,
  type CreateAccountSchema,
  controlRoutes,
  PaySchema,
  parse,
} from './control-routes.ts';
import { Deliveries } from './deliveries.ts';
import { apiError, StripeFailure, unrecognizedUrl } from './errors.ts';
import { expand } from './expand.ts';
import { type StandInFault, StandInFaults } from './faults.ts';
import { fingerprint, readKey, recall, remember } from './idempotency.ts';
import { accountObject, merchantName } from './objects.ts';
import { Params, parseForm } from './params.ts';
import { type AccountRecord, type SessionRecord, Store } from './store.ts';

export interface StripeStandInOptions {
  /** The port to listen on, on 127.0.0.1. @default 0 (a free port) */
  port?: number;
  /** Where the state is kept across restarts (loaded at start, written after every change). @default in memory only */
  stateFile?: string;
  /** The bearer token of the control API (`/_standin/…`). */
  controlToken: string;
  /** Where a browser reaches the stand-in: the origin of Checkout Sessions' `url`. @default its own URL */
  publicUrl?: string;
  /** The waits between webhook delivery attempts. @default [250, 1000, 3000] */
  webhookRetryDelaysMs?: readonly number[];
}

export interface StripeStandIn {
  /** `http://127.0.0.1:<port>`: the stripe package's `host`/`port` with `protocol: 'http'`. */
  url: string;
  stop(): Promise<void>;
}

const maxBody = 1024 * 1024;

/** Stripe's mask of a key in its 401: the prefix, then only the last four characters. */
function maskKey(key: string): string {
  const prefix = /^(sk|rk|pk)_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}****${key.length > prefix.length + 4 ? key.slice(-4) : ''}`;
}

/** The API key of a request: `Authorization: Bearer sk_…`, or Basic with the key as the user. */
function apiKeyOf(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === 'bearer') return value || undefined;
  if (scheme?.toLowerCase() === 'basic')
    return Buffer.from(value, 'base64').toString('utf8').split(':')[0] || undefined;
  return undefined;
}

/** A path segment decoded; undefined when there is none or it is not valid percent-encoding. */
function decodePart(part: string | undefined): string | undefined {
  if (part === undefined) return undefined;
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

function sameSecret(given: string, wanted: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(wanted);
  return a.length === b.length && timingSafeEqual(a, b);
}

interface Answer {
  status: number;
  body: string;
  headers?: Record<string, string>;
  /** A `lose` fault hit the call: done, and the socket is destroyed unanswered. */
  lose?: boolean;
}

const json = (status: number, value: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  body: `${JSON.stringify(value, null, 2)}\n`,
  headers: { 'Content-Type': 'application/json', ...headers },
});

const page = (status: number, text: string): Answer => ({
  status,
  body: text,
  headers: {
    'Content-Type': 'text/html; charset=utf-8',
    // No script runs on the page; the form posts to this origin, then 303 to the merchant's.
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
    'Cache-Control': 'no-store',
  },
});

/** What a fault hitting a call makes of it. */
interface FaultEffect {
  /** Answered already (`down`, `error500`): do nothing more. */
  answer?: Answer;
  lose: boolean;
  refuse: boolean;
}

async function applyFault(
  fault: StandInFault | undefined,
  failure: (status: 500 | 503) => Answer,
): Promise<FaultEffect> {
  if (!fault) return { lose: false, refuse: false };
  switch (fault.effect) {
    case 'slow':
      await sleep(fault.delayMs ?? 1000);
      return { lose: false, refuse: false };
    case 'down':
      return { answer: failure(503), lose: false, refuse: false };
    case 'error500':
      return { answer: failure(500), lose: false, refuse: false };
    case 'lose':
      return { lose: true, refuse: false };
    case 'refuse':
      return { lose: false, refuse: true };
  }
}

/** Starts the stand-in on 127.0.0.1 and answers its URL and how to stop it. */
export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  if (!options.controlToken) throw new Error('the Stripe stand-in needs a control token');
  const store = new Store(options.stateFile);
  const deliveries = new Deliveries(store, options.webhookRetryDelaysMs);
  const faults = new StandInFaults();
  let publicUrl = options.publicUrl?.replace(/\/$/, '') ?? '';

  /** Which account and mode each key opens. */
  const keys = new Map<string, { account: string; livemode: boolean }>();
  const indexKeys = (account: AccountRecord) => {
    keys.set(account.keys.test, { account: account.object.id, livemode: false });
    keys.set(account.keys.restrictedTest, { account: account.object.id, livemode: false });
    keys.set(account.keys.live, { account: account.object.id, livemode: true });
    keys.set(account.keys.restrictedLive, { account: account.object.id, livemode: true });
  };
  for (const account of store.accounts.values()) indexKeys(account);

  const contextFor = (
    account: AccountRecord,
    livemode: boolean,
    request: RequestInfo = { id: null, idempotency_key: null },
    refuse = false,
  ): Context => ({
    store,
    account,
    livemode,
    request,
    apiVersion: defaultApiVersion,
    publicUrl,
    refuse,
    deliver: (event) => {
      deliveries.deliver(event);
    },
  });

  const createAccount = (input: v.InferOutput<typeof CreateAccountSchema>): AccountRecord => {
    const secret = () => randomToken(40);
    const account: AccountRecord = {
      seq: store.nextSeq(),
      object: accountObject({
        created: store.now(),
        displayName: input.display_name ?? null,
        email: input.email ?? null,
        country: input.country ?? 'US',
        defaultCurrency: input.default_currency ?? 'usd',
      }),
      keys: {
        test: `sk_test_${secret()}`,
        live: `sk_live_${secret()}`,
        restrictedTest: `rk_test_${secret()}`,
        restrictedLive: `rk_live_${secret()}`,
      },
    };
    store.accounts.set(account.object.id, account);
    store.changed();
    indexKeys(account);
    return account;
  };

  const controlDeps: ControlDeps = {
    store,
    deliveries,
    faults,
    createAccount,
    contextFor: (account, livemode) => contextFor(account, livemode),
  };

  async function serveApi(request: IncomingMessage, url: URL): Promise<Answer> {
    const requestId = `req_${randomToken(14)}`;
    const stripeError = (failure: StripeFailure) =>
      json(failure.status, { error: failure.body }, { 'Request-Id': requestId });
    const method = request.method ?? 'GET';
    const matched = matchRoute(apiRoutes, method, url.pathname);
    if (!matched) return stripeError(unrecognizedUrl(method, url.pathname));
    const route = apiRoutes[matched.index] as ApiRoute;
    const key = apiKeyOf(request);
    const owner = key === undefined ? undefined : keys.get(key);
    const account = owner && store.accounts.get(owner.account);
    if (!owner || !account)
      return stripeError(
        new StripeFailure(401, {
          type: 'invalid_request_error',
          message:
            key === undefined
              ? "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/."
              : `Invalid API Key provided: ${maskKey(key)}`,
        }),
      );
    const raw = method === 'POST' ? (await readBody(request, maxBody)).toString('utf8') : url.search.slice(1);
    const effect = await applyFault(faults.take(route.faults, account.object.id), (status) =>
      stripeError(apiError(status)),
    );
    if (effect.answer) return effect.answer;
    const idempotencyKey = method === 'POST' ? readKey(request.headers['idempotency-key']) : undefined;
    const print = fingerprint(method, url.pathname, raw);
    if (idempotencyKey !== undefined) {
      const kept = recall(store, account.object.id, owner.livemode, idempotencyKey, print);
      if (kept)
        return {
          status: kept.status,
          body: kept.body,
          headers: {
            'Content-Type': 'application/json',
            'Request-Id': requestId,
            'Idempotency-Key': idempotencyKey,
            'Idempotent-Replayed': 'true',
            'Original-Request': kept.requestId,
          },
          lose: effect.lose,
        };
    }
    const ctx = contextFor(
      account,
      owner.livemode,
      { id: requestId, idempotency_key: idempotencyKey ?? null },
      effect.refuse,
    );
    let answer: Answer;
    try {
      const params = new Params(parseForm(raw));
      const paths = params.strings('expand') ?? [];
      const value = route.handle(ctx, { params, path: matched.path });
      // A handler that forgot to refuse unknown parameters is a bug of the stand-in: caught here too.
      params.done();
      answer = json(200, expand(ctx, value, paths), { 'Request-Id': requestId });
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      answer = stripeError(error);
    }
    if (idempotencyKey !== undefined) {
      answer.headers = { ...answer.headers, 'Idempotency-Key': idempotencyKey };
      remember(store, {
        account: account.object.id,
        livemode: owner.livemode,
        key: idempotencyKey,
        fingerprint: print,
        status: answer.status,
        body: answer.body,
        requestId,
      });
    }
    return { ...answer, lose: effect.lose };
  }

  /** The payer's form, read into what paySession takes; a string is what is wrong with it. */
  function readPayerForm(form: URLSearchParams): PayerInput | string {
    const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.get('expiry') ?? '');
    if (!expiry) return "Your card's expiration date is incomplete.";
    const name = form.get('name')?.trim() ?? '';
    if (name === '') return "Enter the cardholder's name.";
    return {
      card: form.get('card_number') ?? '',
      exp_month: Number(expiry[1]),
      exp_year: Number(expiry[2]),
      cvc: (form.get('cvc') ?? '').trim(),
      email: form.get('email')?.trim() || null,
      name,
    };
  }

  function pageInput(ctx: Context, record: SessionRecord): PageInput {
    return {
      session: record.object,
      lineItems: record.lineItems,
      merchant: merchantName(ctx.account.object),
      knownEmail: knownEmail(ctx, record),
    };
  }

  /** Where a session's payer is: its account and mode, the `checkout_pay` fault taken. */
  async function payerContext(
    record: SessionRecord,
    failure: (status: 500 | 503) => Answer,
  ): Promise<{ ctx: Context; effect: FaultEffect }> {
    const account = store.accounts.get(record.account) as AccountRecord;
    const effect = await applyFault(faults.take(['checkout_pay'], account.object.id), failure);
    return { ctx: contextFor(account, record.livemode, undefined, effect.refuse), effect };
  }

  async function servePage(request: IncomingMessage, url: URL): Promise<Answer> {
    const id = decodePart(/^\/pay\/([^/]+)$/.exec(url.pathname)?.[1]);
    const record = id === undefined ? undefined : store.collections.checkoutSessions.get(id);
    if (!record || (request.method !== 'GET' && request.method !== 'POST')) return page(404, missingPage());
    const form =
      request.method === 'POST'
        ? new URLSearchParams((await readBody(request, maxBody)).toString('utf8'))
        : undefined;
    const { ctx, effect } = await payerContext(record, (status) => page(status, unavailablePage()));
    if (effect.answer) return effect.answer;
    const input = pageInput(ctx, record);
    if (!form) {
      expireIfDue(ctx, record);
      return {
        ...page(200, record.object.status === 'open' ? checkoutPage(input) : closedPage(input)),
        lose: effect.lose,
      };
    }
    const typed = { email: form.get('email') ?? '', name: form.get('name') ?? '' };
    const payer = readPayerForm(form);
    if (typeof payer === 'string') {
      expireIfDue(ctx, record);
      if (record.object.status !== 'open') return { ...page(400, closedPage(input)), lose: effect.lose };
      return { ...page(400, checkoutPage({ ...input, typed, error: payer })), lose: effect.lose };
    }
    const result = paySession(ctx, record, payer);
    if (!('error' in result)) {
      if (result.redirect)
        return { status: 303, body: '', headers: { Location: result.redirect }, lose: effect.lose };
      return { ...page(200, closedPage(input)), lose: effect.lose };
    }
    if (record.object.status !== 'open') return { ...page(400, closedPage(input)), lose: effect.lose };
    return {
      ...page(result.httpStatus, checkoutPage({ ...input, typed, error: result.error.message })),
      lose: effect.lose,
    };
  }

  /** POST /_standin/checkout/sessions/:id/pay: the payer's form, without a browser. */
  async function controlPay(id: string, body: unknown): Promise<Answer> {
    const input = parse(PaySchema, body);
    const record = store.collections.checkoutSessions.get(id);
    if (!record) return json(404, { error: `no such checkout session: ${id}` });
    const { ctx, effect } = await payerContext(record, (status) =>
      json(status, { error: { type: 'api_error', message: apiError(status).message } }),
    );
    if (effect.answer) return effect.answer;
    const year = new Date(store.now() * 1000).getUTCFullYear();
    const result: PayResult = paySession(ctx, record, {
      card: input.card,
      exp_month: input.exp_month ?? 12,
      exp_year: input.exp_year ?? year + 3,
      cvc: input.cvc ?? '123',
      email: input.email ?? (knownEmail(ctx, record) ? null : 'payer@example.com'),
      name: input.name ?? null,
    });
    if ('error' in result)
      return {
        ...json(result.httpStatus, { status: result.status, error: result.error }),
        lose: effect.lose,
      };
    return { ...json(200, { status: result.status, redirect: result.redirect }), lose: effect.lose };
  }

  async function serveControl(request: IncomingMessage, url: URL): Promise<Answer> {
    if (!sameSecret(String(request.headers.authorization ?? ''), `Bearer ${options.controlToken}`))
      return json(401, { error: 'a Bearer control token is required' });
    const method = request.method ?? 'GET';
    const text = method === 'POST' ? (await readBody(request, maxBody)).toString('utf8') : '';
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      return json(400, { error: 'the body is not JSON' });
    }
    try {
      const pay = decodePart(/^\/_standin\/checkout\/sessions\/([^/]+)\/pay$/.exec(url.pathname)?.[1]);
      if (pay !== undefined && method === 'POST') return await controlPay(pay, body);
      const matched = matchRoute(controlRoutes, method, url.pathname);
      if (!matched) return json(404, { error: `no such control: ${method} ${url.pathname}` });
      const route = controlRoutes[matched.index];
      return json(200, route?.handle(controlDeps, { body, path: matched.path, query: url.searchParams }));
    } catch (error) {
      if (error instanceof ControlFailure) return json(error.status, { error: error.message });
      if (error instanceof StripeFailure) return json(error.status, { error: error.body });
      throw error;
    }
  }

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let answer: Answer;
    try {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      if (url.pathname.startsWith('/v1/')) answer = await serveApi(request, url);
      else if (url.pathname.startsWith('/pay/')) answer = await servePage(request, url);
      else if (url.pathname.startsWith('/_standin/')) answer = await serveControl(request, url);
      else answer = json(404, { error: unrecognizedUrl(request.method ?? 'GET', url.pathname).body });
    } catch (error) {
      if (error instanceof BodyTooLarge)
        answer = json(413, { error: { type: 'invalid_request_error', message: 'Request body too large.' } });
      else if (error instanceof StripeFailure) answer = json(error.status, { error: error.body });
      else {
        console.error('Stripe stand-in:', error);
        answer = json(500, {
          error: { type: 'api_error', message: `The stand-in failed: ${(error as Error).message}` },
        });
      }
    }
    // Whatever the call changed is on disk before anyone hears of it.
    store.save();
    if (answer.lose) {
      request.socket.destroy();
      return;
    }
    response.writeHead(answer.status, answer.headers ?? {});
    response.end(answer.body);
  }

  const server: Server = createServer((request, response) => {
    void serve(request, response);
  });
  const port = await listenOnLoopback(server, options.port ?? 0);
  const url = `http://127.0.0.1:${port}`;
  if (!publicUrl) publicUrl = url;
  // A restarted stand-in may listen elsewhere: an open session's page is where it is now.
  for (const record of store.collections.checkoutSessions.values()) {
    if (record.object.status === 'open') record.object.url = `${publicUrl}/pay/${record.object.id}`;
  }
  store.changed();
  store.save();
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        deliveries.stop();
        store.save();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A control token for a stand-in started without one given. */
export const newControlToken = (): string => randomBytes(24).toString('base64url');
