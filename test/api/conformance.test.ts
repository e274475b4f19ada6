/**
 * A conformance fuzz of the OpenAPI document the stack serves: every operation gets requests the
 * document calls valid, drawn by json-schema-faker from the operation's own parameter and body
 * schemas (seeded by fast-check, so a failure replays from its printed seed). Path parameters name
 * real resources of the fuzz account most of the time (so requests reach past 404), sometimes an id
 * of the right shape that names nothing. Every answer must be one the document predicts:
 *
 * - its status is listed under the operation's `responses`;
 * - its body validates against the schema listed for that status and content type, and the
 *   headers listed for it are there;
 * - a refusal (any 4xx) of such a request is predicted only by an allowance below: a rule that
 *   depends on stored state or ties fields together, which a JSON schema cannot state but the
 *   operation's answer description does.
 *
 * `FUZZ_RUNS` sets the requests per operation (default 40; a quarter of that, at least 5, for the
 * operations that take a resource made for each request). Every operation is fuzzed even when one
 * fails; the findings are listed together.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { generate } from 'json-schema-faker';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPayment, csrfOf as csrfIn, openPage, payThroughCheckout } from '../support/checkout.ts';
import { DashboardClient } from '../support/dashboard.ts';
import { type Json, type Operation, operationsOf } from '../support/fuzz.ts';
import { png } from '../support/images.ts';
import { waitForMail } from '../support/mail.ts';
import { api, apiKey, apiUrl, clientBasic, newAccount, type TestAccount } from '../support/stack.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 40);
/** A seed a failure printed: every operation draws its requests from it again. */
const replay = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/**
 * Refusals the document predicts for a request its schemas call valid: each one's status is listed
 * for the operation and the listed answer's description states the rule (quoted in `where`).
 * `when` narrows it to the requests the rule is about. Keep this list short: a refusal a schema can
 * state belongs in the schema.
 */
interface Allowance {
  /** `METHOD /path` of the document (or several); `*` for any method or path, `*` alone for every operation. */
  operation: string | string[];
  status: number | number[];
  /** What the refusal's answer says. */
  message: RegExp;
  /** Where the document states the rule. */
  where: string;
  when?: (sent: Sent) => boolean;
}

/**
 * The dashboard's forms: a request drawn from the document carries no CSRF token, so each is refused
 * with 403, as documented, and none counts among the requests that should mostly succeed.
 */
const dashboardForms = [
  'POST /dashboard/sign-in',
  'POST /dashboard/sign-in/code',
  'POST /dashboard/access/{token}',
  'POST /dashboard/mode',
  'POST /dashboard/sign-out',
  'POST /dashboard/language',
  'POST /dashboard/charges/{id}/refunds',
  'POST /dashboard/plans',
  'POST /dashboard/plans/{id}/delete',
  'POST /dashboard/plans/{id}/active',
  'POST /dashboard/products',
  'POST /dashboard/products/{id}/delete',
  'POST /dashboard/links',
  'POST /dashboard/links/{id}/delete',
  'POST /dashboard/webhooks',
  'POST /dashboard/webhooks/{id}/redeliver',
  'POST /dashboard/webhooks/{id}/rotate-secret',
  'POST /dashboard/webhooks/{id}/delete',
  'POST /dashboard/api-keys/rotate',
  'POST /dashboard/customers/{id}/portal',
  'POST /dashboard/subscriptions/{id}/cancel',
  'POST /dashboard/subscriptions/{id}/cancel-at-period-end',
  'POST /dashboard/subscriptions/{id}/resume',
  'POST /dashboard/users',
  'POST /dashboard/users/{id}/role',
  'POST /dashboard/users/{id}/remove',
  'POST /dashboard/connectors/{mode}',
  'POST /dashboard/connectors/{mode}/disconnect',
  'POST /dashboard/profile/password',
  'POST /dashboard/profile/two-factor/start',
  'POST /dashboard/profile/two-factor',
  'POST /dashboard/profile/two-factor/remove',
];

const allowances: Allowance[] = [
  {
    // A one-time link's token is made by `users add`, an invitation or the banner, never drawn: a
    // drawn one names no link.
    operation: ['GET /dashboard/access/{token}', 'POST /dashboard/access/{token}'],
    status: 404,
    message: /This link no longer works/,
    where: 'their 404: "The link was used, has expired, or is none: saying so"',
  },
  {
    // A path id of the right shape that names no record of the account.
    operation: '*',
    status: 404,
    message: /not found|no such|no checkout/i,
    where:
      'the 404 of every operation with a path parameter: "Not found (also records of another account or mode)"',
    when: (sent) => sent.randomId,
  },
  {
    // A test key with `test=false` in the query: the mode contradicts the key.
    operation: '*',
    status: 403,
    message: /Mode mismatch/,
    where: 'the `test` query parameter of every authorized operation: "a contradicting value is 403"',
    when: (sent) => sent.saysLive === 'query',
  },
  {
    // A test key with `test` or `is_test` false in the body: a record never changes mode.
    operation: '*',
    status: 400,
    message: /Mode cannot change/,
    where: 'the body fields `test` and `is_test`: "a contradicting value is 400"',
    when: (sent) => sent.saysLive === 'body',
  },
  {
    operation: '*',
    status: 404,
    // The API's envelope titles it; a dashboard page shows its sentence.
    message: /Invalid page|Page \d+ does not exist/,
    where: 'the 404 of every paged list: "Invalid page: a page past the last"',
    when: (sent) => /[?&]page=/.test(sent.path),
  },
  {
    // Only Stripe can sign an event: a request the fuzz makes is never signed with the account's secret.
    operation: 'POST /v1/connectors/stripe/{account_id}/events/',
    status: 400,
    message: /Event not verified/,
    where: 'its 400: "The signature does not verify (or the account has no Stripe connection)"',
  },
  {
    operation: 'PATCH /v1/auth/api-keys/',
    status: 403,
    message: /A test key may rotate only the test key/,
    where: 'its 403: "A test key may rotate only the test key"',
  },
  {
    operation: 'POST /v1/customers/{id}/addresses/',
    status: 406,
    message: /already has 3 addresses/,
    where: 'its 406: "The customer already has 3 addresses"',
  },
  {
    operation: 'GET /v1/customers/',
    status: 404,
    message: /No customers found/,
    where: 'its 404: "The search view matched nothing (with `query`)"',
    when: (sent) => /[?&]search=/.test(sent.path),
  },
  {
    // E-mails are unique per account and mode, and the generator draws them from a small pool.
    operation: ['POST /v1/customers/', 'PUT /v1/customers/{id}/'],
    status: 400,
    message: /E-mail in use/,
    where: 'the 400 of creating or changing a customer: "the e-mail is already another customer\'s"',
  },
  {
    operation: ['GET /v1/plans/', 'GET /dashboard/plans'],
    status: 400,
    message: /Invalid (price|subscriber) range/,
    where: 'its 400: "price_max below price_min, or subscribers_max below subscribers_min"',
  },
  {
    // Whether a host resolves, and to what, is not in the URL; and an account keeps 16 endpoints.
    operation: ['POST /v1/webhook-endpoints/', 'PUT /v1/webhook-endpoints/{id}/'],
    status: 400,
    message: /Webhook URL refused|Too many webhook endpoints/,
    where:
      'the 400 of creating or changing an endpoint: "its host does not resolve …; or the account already has 16 endpoints"',
  },
  {
    operation: ['GET /v1/plans/', 'GET /dashboard/plans'],
    status: 400,
    message: /No plans found/,
    where: 'its 400: "or no plan matches the filters (No plans found, type warning)"',
  },
  {
    // A product keeps its price when a PUT changes only its currency (or the reverse), and an
    // earlier PUT of the fuzz may have changed its currency.
    operation: 'PUT /v1/products/{id}/',
    status: 400,
    message: /Price validation error|larger than cobro accepts/,
    where:
      'its 400: "the price (the one sent, else the stored one) does not fit the currency (the one sent, else the stored one)"',
  },
  {
    // The link fuzzed may have been marked paid by an earlier PUT of the same fuzz.
    operation: 'PUT /v1/payment-links/{id}/',
    status: 406,
    message: /Payment link paid/,
    where: 'its 406 "The link is paid" and its summary: "a paid link cannot be modified (406)"',
  },
  {
    operation: 'POST /v1/events/{id}/redeliver/',
    status: 429,
    message: /Too many redeliveries/,
    where: 'its 429: "at most 5 redeliveries of an event … an hour"',
  },
  {
    // A fresh checkout has no 3-D Secure challenge to complete.
    operation: 'POST /checkout/{token}/challenge',
    status: [400, 403, 409],
    message: /<!doctype html>/i,
    where:
      'its 409: "or no 3-D Secure challenge is pending" (and the form answers of POST /checkout/{token})',
  },
  {
    // Amounts in text can be below the minimum (a schema cannot compare text as a number).
    operation: 'POST *',
    status: 400,
    message: /below the minimum|at least the equivalent|minimum amount/i,
    where:
      'the amount\'s description and the 400 of payments, links and charges: "at least the equivalent of USD 1.00"',
  },
  {
    // A card number's check digit and its expiry, and the acquirer's answer.
    operation: 'POST /v1/charges/simple/create/',
    status: [400, 402],
    message: /card|declined|expired/i,
    where: 'its 400 "its number fails the Luhn check, or it has expired" and 402 "Declined"',
  },
  {
    // What is left of the charge, and the decimals of its currency, are the charge's.
    operation: 'POST /v1/refunds/',
    status: 400,
    message: /refund|decimals|exceeds|remaining/i,
    where:
      'its 400: "already refunded, or smaller than the amount; or the amount has more decimals than the charge\'s currency"',
  },
  {
    // The hosted checkout is a page for a browser: it checks the card (digits, expiry, the acquirer's
    // answer) and shows the form again saying what is wrong.
    operation: 'POST /checkout/{token}',
    status: [400, 402],
    message: /<!doctype html>/i,
    where:
      'its 400 "a card number whose check digit is wrong, an expiry already past: the form again" and 402 "Declined"',
  },
  {
    // The dashboard's forms post the CSRF token of the page they are on (the sign-in form, its own
    // cookie's); a request drawn from the document carries none.
    operation: dashboardForms,
    status: 403,
    message: /<!doctype html>/i,
    where: 'their 403: "The form expired (its CSRF token is not the session’s): nothing changed"',
  },
  {
    // The dashboard's lists page as the API's lists do; their page says so in the list's words.
    operation: ['GET /dashboard/customers', 'GET /dashboard/subscriptions'],
    status: 404,
    message: /does not exist; the last page is/,
    where: 'their 404: "A page past the last: the page, saying so"',
    when: (sent) => /[?&]page=/.test(sent.path),
  },
  {
    // The charges page's search names a charge or payment id; drawn text names none.
    operation: 'GET /dashboard/charges',
    status: 404,
    message: /has the id|has no charge/,
    where: 'its 404: "No charge of the account and mode has the `find` id (or its payment is unpaid)"',
    when: (sent) => /[?&]find=/.test(sent.path),
  },
  {
    // A subscription's change depends on its state: the fuzz's subscription has not started (its
    // checkout is not paid), so only its metadata may change.
    operation: 'PUT /v1/subscriptions/{id}',
    status: 409,
    message: /not started|canceled|past due|in progress|changed meanwhile/i,
    where:
      'its 409: "Canceled; past due or not started yet (only metadata may change); … or the change is being charged by another request"',
  },
  {
    // The portal's forms name one of the customer's own subscriptions or charges, and an action on it.
    operation: 'POST /portal/{token}',
    status: [400, 409],
    message: /<!doctype html>/i,
    where:
      'its 400 "No such subscription of this customer: the page again" and 409 "already canceled (or no longer billed)"',
  },
];

/** What was sent, as the allowances and the findings read it. */
interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | FormData;
  /** What the body was before it was encoded (for the report). */
  shown: string;
  /** A path parameter is an id of the right shape that names nothing. */
  randomId: boolean;
  /** Where the request asks for live mode (`test=false`) with a test key, if it does. */
  saysLive?: 'query' | 'body';
}

let doc: Json;
let account: TestAccount;
/** The Cookie header of a dashboard session of the fuzz account: dashboard requests reach its pages. */
let dashboardCookie: string;
/** PATCH /v1/auth/api-keys/ rotates keys: it gets an account of its own. */
let rotating: TestAccount;
let auth: string;
let rotatingAuth: string;

/** Ids of real resources of the fuzz account, by kind: read by every operation but PUT and DELETE. */
const fixtures: Record<string, string> = {};
/** Resources PUT changes, so the shared ones keep the state the other operations rely on. */
const mutable: Record<string, string> = {};

/** A POST of the fuzz account that must answer 201: its answer's body. */
async function created(method: string, path: string, body: unknown): Promise<Json> {
  const answer = await api(method, path, { auth, body });
  if (answer.status !== 201) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
  return answer.json;
}

let unique = 0;
const next = () => {
  unique += 1;
  return `${Date.now()}-${unique}`;
};

/** Fresh resources made ahead, a few at a time, for the operation about to be fuzzed. */
const prepared = new Map<string, () => Promise<string> | undefined>();

/**
 * Keeps two fresh resources of `kind` being made ahead of the requests that take them, `count` in
 * all (never more at once: an account keeps at most 16 webhook endpoints).
 */
function prepare(kind: string, count: number): void {
  const factory = factories[kind] as () => Promise<string>;
  let left = count;
  const queue: Promise<string>[] = [];
  const refill = () => {
    while (queue.length < 2 && left > 0) {
      left -= 1;
      queue.push(factory());
    }
  };
  refill();
  prepared.set(kind, () => {
    const next = queue.shift();
    refill();
    return next;
  });
}

/** The customer of each address the address factory made. */
const addressOwners = new Map<string, string>();

/** Makes a new resource of `kind` for the fuzz account and answers its id. */
const factories: Record<string, () => Promise<string>> = {
  customer: async () =>
    (
      await created('POST', '/v1/customers/', {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: `ada-${next()}@example.com`,
      })
    ).data.id,
  // A customer holds at most 3 addresses: each address made here gets a customer of its own.
  address: async () => {
    const owner = await (factories.customer as () => Promise<string>)();
    const id = (await created('POST', `/v1/customers/${owner}/addresses/`, { line1: '1 Main St' })).data.id;
    addressOwners.set(id, owner);
    return id;
  },
  plan: async () =>
    (
      await created('POST', '/v1/plans/', {
        name: 'Gold',
        currency: 'USD',
        amount: '10.50',
        interval: 'month',
        interval_count: 1,
      })
    ).data.id,
  product: async () =>
    (await created('POST', '/v1/products/', { name: 'Mug', price: '12.00', currency: 'USD' })).data.id,
  endpoint: async () =>
    (await created('POST', '/v1/webhook-endpoints/', { url: 'http://127.0.0.1:9/hook' })).data.id,
  subscription: async () =>
    (
      await created('POST', '/v1/subscriptions', {
        plan_id: fixtures.plan,
        customer_id: fixtures.customer,
        return_url: 'https://shop.example.com/thanks',
      })
    ).data.subscription_id,
  link: async () => {
    const answer = await created('POST', '/v1/payment-links/', {
      description: 'Lesson',
      amount: '20.00',
      currency: 'USD',
    });
    const data = Array.isArray(answer.data) ? answer.data[0] : answer.data;
    return data.id;
  },
  token: async () => (await createPayment(auth)).token,
  portal: async () => {
    // The payer of the fixture charge: their page lists it, with a form (and so its CSRF token).
    const charge = await api('GET', `/v1/charges/${fixtures.charge}/`, { auth });
    const answer = await api('POST', `/v1/customers/${charge.json.customer}/portal/`, { auth });
    expect(answer.status, answer.text).toBe(201);
    return String(answer.json.url).split('/').pop() as string;
  },
};

beforeAll(async () => {
  const served = await api('GET', '/openapi.json');
  expect(served.status).toBe(200);
  doc = served.json;
  [account, rotating] = await Promise.all([newAccount('conform'), newAccount('conform-rotate')]);
  auth = apiKey(account.testKey);
  rotatingAuth = apiKey(rotating.testKey);
  for (const kind of ['customer', 'plan', 'product', 'endpoint', 'link'] as const) {
    fixtures[kind] = await (factories[kind] as () => Promise<string>)();
    mutable[kind] = await (factories[kind] as () => Promise<string>)();
  }
  fixtures.address = await (factories.address as () => Promise<string>)();
  // The account a connector's events name (Stripe's): the fuzz's own, connected to no Stripe account.
  fixtures.account = String(account.developerId);
  fixtures.subscription = await (factories.subscription as () => Promise<string>)();
  fixtures.tax = String(
    (await created('POST', '/v1/taxes/', { name: 'VAT', value: 13 })).data.id as number | string,
  );
  // Its payer's only e-mail is the charge's receipt, whose link names a real receipt token.
  const payer = `conformance-${Date.now()}@example.com`;
  const paid = await payThroughCheckout(auth, { payment: { amount: '1000.00' }, card: { email: payer } });
  fixtures.payment = paid.id;
  fixtures.charge = paid.chargeId;
  const receipt = await waitForMail(payer);
  fixtures.receipt = /\/receipts\/([A-Za-z0-9]+)$/m.exec(receipt?.body.text ?? '')?.[1] ?? '';
  fixtures.token = (await createPayment(auth)).token;
  fixtures.portal = await (factories.portal as () => Promise<string>)();
  const dashboard = await new DashboardClient().signedIn(account.testKey);
  dashboardCookie = [...dashboard.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  // The admin pages' records: the session's own user (its forms are refused without a CSRF token),
  // and the live mode.
  fixtures.user = dashboard.user?.user.user_id as string;
  fixtures.mode = 'live';
  const refund = await created('POST', '/v1/refunds/', {
    charge_id: paid.chargeId,
    amount: '1.00',
    reason: 'requested_by_customer',
  });
  fixtures.refund = refund.id;
  const image = await created('POST', '/v1/plans/', {
    name: 'Pictured',
    currency: 'USD',
    amount: '5.00',
    interval: 'month',
    interval_count: 1,
    image: `data:image/png;base64,${png({ seed: 'conformance' }).toString('base64')}`,
  });
  const plan = await api('GET', `/v1/plans/${image.data.id}/`, { auth });
  fixtures.media = String(plan.json.information?.image ?? '')
    .split('/')
    .pop() as string;
  const events = await api('GET', '/v1/events/', { auth });
  fixtures.event = events.json.results?.[0]?.id ?? events.json.data?.[0]?.id;
  for (const [kind, id] of Object.entries(fixtures)) if (!id) throw new Error(`no ${kind} fixture`);
}, 120_000);

/** The kind of resource a path parameter names. */
function kindOf(path: string, name: string): string {
  if (name === 'address_id') return 'address';
  if (path.startsWith('/receipts/')) return 'receipt';
  if (path.startsWith('/portal/')) return 'portal';
  if (path.startsWith('/dashboard/charges/')) return 'charge';
  if (path.startsWith('/dashboard/webhooks/')) return 'endpoint';
  if (path.startsWith('/dashboard/events/')) return 'event';
  if (path.startsWith('/dashboard/plans/')) return 'plan';
  if (path.startsWith('/dashboard/products/')) return 'product';
  if (path.startsWith('/dashboard/links/')) return 'link';
  if (path.startsWith('/dashboard/customers/')) return 'customer';
  if (path.startsWith('/dashboard/subscriptions/')) return 'subscription';
  if (path.startsWith('/dashboard/users/')) return 'user';
  if (path.startsWith('/dashboard/connectors/')) return 'mode';
  if (name === 'token') return 'token';
  const kinds: [string, string][] = [
    ['/v1/customers/', 'customer'],
    ['/v1/charges/', 'charge'],
    ['/v1/payments/', 'payment'],
    ['/v1/refunds/', 'refund'],
    ['/v1/plans/', 'plan'],
    ['/v1/products/', 'product'],
    ['/v1/webhook-endpoints/', 'endpoint'],
    ['/v1/events/', 'event'],
    ['/v1/subscriptions/', 'subscription'],
    ['/v1/payment-links/', 'link'],
    ['/media/', 'media'],
    ['/v1/connectors/', 'account'],
  ];
  const found = kinds.find(([prefix]) => path.startsWith(prefix));
  if (!found) throw new Error(`no fixture kind for {${name}} of ${path}`);
  return found[1];
}

/** Body fields that name another resource, by the kind they name. */
const referenceFields: Record<string, string> = {
  plan_id: 'plan',
  customer_id: 'customer',
  customer: 'customer',
  charge_id: 'charge',
  endpoint_id: 'endpoint',
  product: 'product',
};

/** An id of the same shape as `id` (prefix, length, alphabet) that names nothing. */
function lookalike(id: string, random: () => number): string {
  const prefix = /^[a-z]+_/.exec(id)?.[0] ?? '';
  return (
    prefix +
    [...id.slice(prefix.length)]
      .map((char) => {
        const set =
          /[0-9a-f-]/.test(char) && /^[0-9a-f-]+$/.test(id.slice(prefix.length))
            ? '0123456789abcdef'
            : 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789';
        return char === '-' ? '-' : set[Math.floor(random() * set.length)];
      })
      .join('')
  );
}

/** A small seeded generator for the choices json-schema-faker does not make. */
function mulberry(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const textOf = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** Form fields of a value: nested objects and arrays as bracketed keys; nulls left out. */
function formFields(value: unknown, prefix = ''): [string, string][] {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object') return [[prefix, String(value)]];
  return Object.entries(value as Json).flatMap(([key, item]) =>
    formFields(item, prefix ? `${prefix}[${key}]` : key),
  );
}

/** The CSRF token of the checkout page at `path` (empty when it shows no form). */
async function csrfOf(path: string): Promise<string> {
  const page = await openPage(`${apiUrl}${path}`);
  return /name="csrf_token"/.test(page.html) ? csrfIn(page.html) : '';
}

/** A non-integer drawn for a `multipleOf` carries float noise (20.932000000000002): 12 digits are kept. */
const roundNoise = (value: unknown): unknown =>
  typeof value === 'number' && !Number.isInteger(value)
    ? Number(value.toPrecision(12))
    : Array.isArray(value)
      ? value.map(roundNoise)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, roundNoise(item)]))
        : value;

/**
 * Checks a drawn body (or parameter) against the document's schema (json-schema-faker is not exact with every
 * keyword combination): the fuzz sends only bodies the document calls valid.
 */
const requestCheck = new Ajv2020({ strict: false, allErrors: true, multipleOfPrecision: 6 });
addFormats.default(requestCheck);
requestCheck.addFormat('binary', true);
const requestValidators = new Map<unknown, ReturnType<typeof requestCheck.compile>>();

/**
 * json-schema-faker draws each property alone, so an `if`/`then` that ties one property to another
 * (an amount's bounds to its currency) is met here: where `if` holds, the properties `then` bounds
 * are drawn again from `then`.
 */
async function meetConditions(schema: Json, value: unknown, options: Json): Promise<void> {
  if (!value || typeof value !== 'object' || !Array.isArray(schema.allOf)) return;
  const fields = value as Json;
  for (const condition of schema.allOf as Json[]) {
    if (!condition.if || !condition.then?.properties) continue;
    if (!requestCheck.validate(condition.if, fields)) continue;
    for (const [name, bound] of Object.entries(condition.then.properties as Json)) {
      if (name in fields) fields[name] = roundNoise(await generate(bound, options));
    }
  }
}

/**
 * What a form body keeps of a value: fields carry text, so a null or an empty array is no field at
 * all (and a body whose schema needs one cannot be sent as a form).
 */
const asForm = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(asForm)
    : value && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, item]) => item !== null && !(Array.isArray(item) && item.length === 0))
            .map(([key, item]) => [key, asForm(item)]),
        )
      : value;

async function validBody(schema: Json, seed: number, form: boolean): Promise<unknown> {
  let validate = requestValidators.get(schema);
  if (!validate) {
    validate = requestCheck.compile(schema);
    requestValidators.set(schema, validate);
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const options = { seed: seed + attempt * 7919, optionalsProbability: 0.5, maxDefaultItems: 3 };
    const value = roundNoise(await generate(schema, options));
    await meetConditions(schema, value, options);
    if (validate(value) && (!form || validate(asForm(value)))) return value;
  }
  throw new Error(`json-schema-faker drew no valid body in 20 tries: ${JSON.stringify(validate.errors)}`);
}

/** Whether a multipart field's value stands for a file: its schema's file branch, not a text one. */
function isFilePart(schema: Json | undefined, value: unknown): boolean {
  if (!schema) return false;
  if (schema.format === 'binary' || schema.items?.format === 'binary') return true;
  const choices = (schema.anyOf ?? []) as Json[];
  const texts = choices.filter((choice) => choice.format !== 'binary');
  return texts.length < choices.length && !texts.some((choice) => requestCheck.validate(choice, value));
}

/** Whether a value says live mode (`test: false`, `is_test: "false"`). */
const saysFalse = (value: unknown) => value === false || value === 'false';

async function build(operation: Operation, seed: number, owner: string): Promise<Sent> {
  const random = mulberry(seed);
  const destroys = operation.method === 'DELETE';
  const changes = operation.method === 'PUT';
  let randomId = false;
  let saysLive: Sent['saysLive'];
  let path = operation.path;
  for (const [, name] of operation.path.matchAll(/\{([^}]+)\}/g)) {
    const kind = kindOf(operation.path, name as string);
    // DELETE gets a resource of its own, PUT one the other operations do not read, a checkout POST
    // a fresh session (declines lock one); everything else the shared fixtures.
    const fresh = destroys || ((kind === 'token' || kind === 'portal') && operation.method === 'POST');
    let id: string;
    if (!fresh) id = (changes ? mutable[kind] : undefined) ?? (fixtures[kind] as string);
    else if (kind === 'customer' && operation.path.includes('{address_id}')) {
      // The address to delete is made first (below): its customer is the one it was made for.
      id = '{owner}';
    } else id = (await prepared.get(kind)?.()) ?? (await (factories[kind] as () => Promise<string>)());
    if (random() < 0.15) {
      id = lookalike(id, random);
      randomId = true;
    }
    path = path.replace(`{${name}}`, encodeURIComponent(id));
  }
  const address = /\/addresses\/([^/]+)\/$/.exec(path)?.[1];
  path = path.replace(encodeURIComponent('{owner}'), addressOwners.get(address ?? '') ?? 'cus_none');
  const headers: Record<string, string> = {};
  if (Array.isArray(operation.op.security) && operation.op.security.length) headers.Authorization = owner;
  if (operation.path.startsWith('/dashboard/')) headers.Cookie = dashboardCookie;
  const query = new URLSearchParams();
  for (const [index, parameter] of ((operation.op.parameters ?? []) as Json[]).entries()) {
    if (parameter.in === 'path' || (!parameter.required && random() < 0.5)) continue;
    const value = await validBody(parameter.schema, seed + index + 1, false);
    if (parameter.in === 'query') {
      if (parameter.name === 'test' && saysFalse(value)) saysLive = 'query';
      query.append(parameter.name, textOf(value));
    } else if (parameter.in === 'header') {
      // A key is one request's: a key sent again with another request is a refusal the fuzz need not meet.
      headers[parameter.name] =
        parameter.name === 'Idempotency-Key' ? `${textOf(value).slice(0, 200)}-${next()}` : textOf(value);
    }
  }
  const search = query.toString();
  const sent: Sent = {
    method: operation.method,
    path: search ? `${path}?${search}` : path,
    headers,
    shown: '',
    randomId,
    saysLive,
  };
  const content = (operation.op.requestBody?.content ?? {}) as Json;
  const types = Object.keys(content);
  if (!types.length) return sent;
  if (!operation.op.requestBody.required && random() < 0.2) return sent;
  const type = types[Math.floor(random() * types.length)] as string;
  const value = await validBody(content[type].schema, seed, type !== 'application/json');
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const fields = value as Json;
    for (const [field, kind] of Object.entries(referenceFields)) {
      if (typeof fields[field] === 'string') fields[field] = fixtures[kind];
    }
    if (Array.isArray(fields.customers)) {
      fields.customers = fields.customers.map((item: unknown) =>
        typeof item === 'string'
          ? fixtures.customer
          : Object.fromEntries(
              Object.entries(item as Json).map(([key, named]) => [
                key,
                (key === 'id' || key === 'customer') && typeof named === 'string' ? fixtures.customer : named,
              ]),
            ),
      );
    }
    if ('taxes' in fields) fields.taxes = fixtures.tax;
    // A data URI must hold a whole image (a rule of its content the description states): a real one.
    if (typeof fields.image === 'string' && fields.image.startsWith('data:'))
      fields.image = `data:image/png;base64,${png().toString('base64')}`;
    // The token endpoint takes the client's real credentials, in the body or else as HTTP Basic.
    if (operation.path === '/authentication/token/') {
      if ('client_id' in fields || 'client_secret' in fields) {
        fields.client_id = account.clientId;
        fields.client_secret = account.clientSecret;
      } else headers.Authorization = clientBasic(account);
    }
    // A browser posts the CSRF token of the page it was shown.
    if (operation.path.startsWith('/checkout/') || operation.path.startsWith('/portal/'))
      fields.csrf_token = await csrfOf(path);
    if (saysFalse(fields.test) || saysFalse(fields.is_test)) sent.saysLive ??= 'body';
  }
  sent.shown = JSON.stringify(value, (_key, item) => (item instanceof Blob ? '<file>' : item));
  if (type === 'application/json') {
    sent.body = JSON.stringify(value);
    headers['Content-Type'] = type;
  } else if (type === 'multipart/form-data') {
    const form = new FormData();
    const binary = (content[type].schema.properties ?? {}) as Json;
    // As OpenAPI encodes multipart by default: a file as a file part, an array as repeated parts,
    // an object as JSON text.
    const image = () => new Blob([new Uint8Array(png())], { type: 'image/png' });
    for (const [key, field] of Object.entries((value ?? {}) as Json)) {
      if (field === null || field === undefined) continue;
      const items = Array.isArray(field) ? field : [field];
      for (const item of items) {
        if (isFilePart(binary[key], item)) form.append(key, image(), 'image.png');
        else form.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
      }
    }
    sent.body = form;
  } else {
    sent.body = new URLSearchParams(formFields(value)).toString();
    headers['Content-Type'] = type;
  }
  return sent;
}

/** A validator of answers against the document's own schemas (its components resolved in place). */
function answerCheck(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  // Ajv reads no discriminator with a mapping: the union is checked as the `oneOf` it qualifies.
  const { discriminator: _read, ...event } = document.components.schemas.Event ?? {};
  ajv.addSchema({ $id: 'cobro', components: { schemas: { ...document.components.schemas, Event: event } } });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  return (key: string, schema: Json, value: unknown): string[] => {
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile({ $id: `cobro-${compiled.size}`, ...rebase(schema) });
      compiled.set(key, validate);
    }
    return validate(value)
      ? []
      : (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath} ${error.message}`);
  };
}

/** A schema whose component references point at the `cobro` schema holding the components. */
function rebase(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"cobro#/components/'));
}

/** Whether `pattern` (`METHOD /path`, either of them `*`, or `*` alone) names the operation. */
function matches(pattern: string, operation: Operation): boolean {
  if (pattern === '*') return true;
  const [method, path] = pattern.split(' ');
  return (method === '*' || method === operation.method) && (path === '*' || path === operation.path);
}

/** The problems of one answer to a valid request; none when the document predicts it. */
function problems(
  operation: Operation,
  sent: Sent,
  answer: { status: number; headers: Headers; text: string },
  check: ReturnType<typeof answerCheck>,
): string[] {
  const listed = operation.op.responses[String(answer.status)];
  if (!listed)
    return [`status ${answer.status} is not among ${Object.keys(operation.op.responses).join(', ')}`];
  const found: string[] = [];
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const content = (listed.content ?? {}) as Json;
  if (Object.keys(content).length) {
    const media = content[type];
    if (!media) found.push(`content type "${type}" is not among ${Object.keys(content).join(', ')}`);
    else if (type === 'application/json') {
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        found.push('the body is not JSON');
      }
      if (body !== undefined)
        found.push(...check(`${operation.method} ${operation.path} ${answer.status}`, media.schema, body));
    }
  }
  // A header the document marks required comes with every such answer; the others only may.
  for (const [name, header] of Object.entries((listed.headers ?? {}) as Json)) {
    if ((header as Json).required === true && !answer.headers.has(name))
      found.push(`header ${name} is missing`);
  }
  if (answer.status >= 400 && answer.status < 500) {
    const allowed = allowances.some(
      (allowance) =>
        [allowance.operation].flat().some((pattern) => matches(pattern, operation)) &&
        [allowance.status].flat().includes(answer.status) &&
        allowance.message.test(answer.text) &&
        (allowance.when?.(sent) ?? true),
    );
    if (!allowed)
      found.push(`refused ${answer.status}, which the document does not predict for this request`);
  }
  return found;
}

describe('the OpenAPI document, fuzzed with requests it calls valid', () => {
  it('predicts every answer: a listed status, a body of its schema, no refusal it does not state', async () => {
    const check = answerCheck(doc);
    const operations = operationsOf(doc);
    expect(operations.length).toBeGreaterThan(50);
    const findings: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    // Operations that delete run first, while the account is small (at most 16 webhook endpoints).
    operations.sort((a, b) => Number(b.method === 'DELETE') - Number(a.method === 'DELETE'));
    for (const operation of operations) {
      // Resources each request takes for itself are made ahead, two at a time.
      const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
      const last = names.at(-1);
      // Each takes a resource made for it alone (DELETE, a checkout's POST): a quarter of the runs
      // (at least 5) covers their few parameters, at a quarter of the cost.
      const own =
        last && (operation.method === 'DELETE' || (last === 'token' && operation.method === 'POST'));
      const numRuns = own ? Math.max(5, Math.ceil(runs / 4)) : runs;
      if (own) prepare(kindOf(operation.path, last), numRuns);
      const rotates = operation.method === 'PATCH' && operation.path === '/v1/auth/api-keys/';
      const result = await fc.check(
        fc.asyncProperty(fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (seed) => {
          const request = await build(operation, seed, rotates ? rotatingAuth : auth);
          const response = await fetch(`${apiUrl}${request.path}`, {
            method: request.method,
            headers: request.headers,
            redirect: 'manual',
            ...(request.body !== undefined ? { body: request.body } : {}),
          });
          const answer = { status: response.status, headers: response.headers, text: await response.text() };
          if (!dashboardForms.includes(`${operation.method} ${operation.path}`)) sent += 1;
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          // A rotated test key is the only one that works from now on.
          if (rotates && answer.status === 200) {
            const rotated = JSON.parse(answer.text).data;
            if (rotated?.type === 'test') rotatingAuth = apiKey(rotated.key);
          }
          const found = problems(operation, request, answer, check);
          if (found.length)
            throw new Error(
              `${request.method} ${request.path.slice(0, 200)} ${request.shown.slice(0, 300)} answered ${
                answer.status
              }: ${answer.text.slice(0, 300)}\n    ${found.join('\n    ')}`,
            );
        }),
        // A failing request is reported as drawn: shrinking would send more requests that change state.
        { numRuns, endOnFailure: true, ...(replay ? { seed: replay } : {}) },
      );
      if (result.failed)
        findings.push(
          `${operation.method} ${operation.path} (FUZZ_SEED=${result.seed} replays its draws): ${
            (result.errorInstance as Error)?.message
          }`,
        );
    }
    if (findings.length) console.log(findings.join('\n\n'));
    expect(findings).toEqual([]);
    // Valid requests mostly succeed: the fuzz reaches past validation into the handlers (the
    // dashboard's forms, refused for want of a CSRF token, are not counted).
    const succeeded = [...statuses].filter(([status]) => status < 400).reduce((sum, [, n]) => sum + n, 0);
    expect(succeeded).toBeGreaterThan(sent / 2);
  }, 600_000);
});
