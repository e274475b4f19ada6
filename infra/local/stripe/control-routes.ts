/**
 * The stand-in's control API (not Stripe's), under `/_standin/`, behind `Authorization: Bearer
 * <controlToken>`: what a test or a developer does that at Stripe a person, a card network or time
 * would do. JSON in, JSON out.
 *
 *   POST   /_standin/accounts                    {display_name?, email?, country?, default_currency?}
 *                                                → {id, test_key, live_key, restricted_test_key, restricted_live_key}
 *   GET    /_standin/accounts                    every account with its keys
 *   POST   /_standin/checkout/sessions/:id/pay   {card, email?, name?, exp_month?, exp_year?, cvc?}: the payer's
 *                                                form (stand-in.ts) → {status, redirect?, error?}
 *   POST   /_standin/disputes                    {charge | payment_intent, reason?, amount?} → the dispute
 *   POST   /_standin/payouts                     {account, livemode, currency?} → the payout
 *   POST   /_standin/events/:id/resend           {endpoint?} → {event, endpoints}: the same event again
 *   GET    /_standin/deliveries?account=&event=  the webhook delivery attempts
 *   GET    /_standin/faults                      the faults still armed
 *   POST   /_standin/faults                      {operation, effect, delayMs?, times?, account?}: adds one
 *   DELETE /_standin/faults?account=             clears them (all, or one account's)
 *   POST   /_standin/clock                       {advance_seconds}: moves the stand-in's clock on → {now}
 */
import * as v from 'valibot';
import type { Context } from './context.ts';
import type { Deliveries } from './deliveries.ts';
import { disputeReasons, openDispute } from './disputes.ts';
import { refusable, type StandInFaults, standInEffects, standInOperations } from './faults.ts';
import { payOut } from './payouts.ts';
import type { AccountRecord, Store } from './store.ts';

export const CreateAccountSchema = v.strictObject({
  display_name: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  email: v.optional(v.pipe(v.string(), v.email())),
  country: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/))),
  default_currency: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{3}$/))),
});

export const PaySchema = v.strictObject({
  card: v.pipe(v.string(), v.maxLength(40)),
  email: v.optional(v.pipe(v.string(), v.maxLength(800))),
  name: v.optional(v.pipe(v.string(), v.maxLength(200))),
  exp_month: v.optional(v.pipe(v.number(), v.integer())),
  exp_year: v.optional(v.pipe(v.number(), v.integer())),
  cvc: v.optional(v.pipe(v.string(), v.maxLength(4))),
});

const DisputeSchema = v.strictObject({
  charge: v.optional(v.pipe(v.string(), v.startsWith('ch_'))),
  payment_intent: v.optional(v.pipe(v.string(), v.startsWith('pi_'))),
  reason: v.optional(v.picklist(disputeReasons)),
  amount: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

const PayoutSchema = v.strictObject({
  account: v.pipe(v.string(), v.startsWith('acct_')),
  livemode: v.boolean(),
  currency: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{3}$/))),
});

const FaultSchema = v.pipe(
  v.strictObject({
    operation: v.picklist(standInOperations),
    effect: v.picklist(standInEffects),
    delayMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(120_000))),
    times: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    account: v.optional(v.pipe(v.string(), v.startsWith('acct_'))),
  }),
  v.check(
    (fault) => fault.effect !== 'refuse' || refusable.includes(fault.operation),
    `refuse has a meaning only for ${refusable.join(', ')}`,
  ),
);

const ResendSchema = v.strictObject({ endpoint: v.optional(v.pipe(v.string(), v.startsWith('we_'))) });

const ClockSchema = v.strictObject({
  advance_seconds: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(366 * 86_400)),
});

/** A control request's failure: its status and message. */
export class ControlFailure extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export interface ControlDeps {
  store: Store;
  deliveries: Deliveries;
  faults: StandInFaults;
  createAccount(input: v.InferOutput<typeof CreateAccountSchema>): AccountRecord;
  /** A context of `account` in a mode, for what the control API does in its name. */
  contextFor(account: AccountRecord, livemode: boolean): Context;
}

export interface ControlCall {
  body: unknown;
  path: Record<string, string>;
  query: URLSearchParams;
}

export interface ControlRoute {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** Answers 200 with the value; throws ControlFailure or StripeFailure. */
  handle(deps: ControlDeps, call: ControlCall): unknown;
}

/** Parses a control body with `schema`, or fails 400 with valibot's messages. */
export function parse<S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> {
  // valibot's object schemas take an array as an object with no keys.
  if (Array.isArray(body)) throw new ControlFailure(400, 'the body is a JSON object');
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw new ControlFailure(400, parsed.issues.map((issue) => issue.message).join('; '));
  return parsed.output;
}

function accountView(account: AccountRecord) {
  return {
    id: account.object.id,
    display_name: account.object.settings?.dashboard.display_name ?? null,
    test_key: account.keys.test,
    live_key: account.keys.live,
    restricted_test_key: account.keys.restrictedTest,
    restricted_live_key: account.keys.restrictedLive,
  };
}

/** The account and mode that own a charge or PaymentIntent, found across every account. */
function ownerOf(deps: ControlDeps, id: string | undefined) {
  if (id === undefined) throw new ControlFailure(400, 'give a charge or a payment_intent');
  const record = id.startsWith('ch_')
    ? deps.store.collections.charges.get(id)
    : deps.store.collections.paymentIntents.get(id);
  const account = record && deps.store.accounts.get(record.account);
  if (!record || !account) throw new ControlFailure(404, `no such object: ${id}`);
  return deps.contextFor(account, record.livemode);
}

export const controlRoutes: readonly ControlRoute[] = [
  {
    method: 'POST',
    path: '/_standin/accounts',
    handle: (deps, { body }) => accountView(deps.createAccount(parse(CreateAccountSchema, body ?? {}))),
  },
  {
    method: 'GET',
    path: '/_standin/accounts',
    handle: (deps) => ({ data: [...deps.store.accounts.values()].map(accountView) }),
  },
  {
    method: 'POST',
    path: '/_standin/disputes',
    handle: (deps, { body }) => {
      const input = parse(DisputeSchema, body);
      return openDispute(ownerOf(deps, input.charge ?? input.payment_intent), input);
    },
  },
  {
    method: 'POST',
    path: '/_standin/payouts',
    handle: (deps, { body }) => {
      const input = parse(PayoutSchema, body);
      const account = deps.store.accounts.get(input.account);
      if (!account) throw new ControlFailure(404, `no such account: ${input.account}`);
      return payOut(deps.contextFor(account, input.livemode), input.currency);
    },
  },
  {
    method: 'POST',
    path: '/_standin/events/:id/resend',
    handle: (deps, { body, path }) => {
      const input = parse(ResendSchema, body ?? {});
      const event = deps.store.collections.events.get(path.id as string);
      if (!event) throw new ControlFailure(404, `no such event: ${path.id}`);
      const endpoints = deps.deliveries.deliver(event, input.endpoint);
      return { event: event.object.id, endpoints };
    },
  },
  {
    method: 'GET',
    path: '/_standin/deliveries',
    handle: (deps, { query }) => {
      const account = query.get('account');
      const event = query.get('event');
      return {
        data: deps.deliveries
          .attempts()
          .filter(
            (attempt) =>
              (account === null || attempt.account === account) &&
              (event === null || attempt.event === event),
          ),
      };
    },
  },
  { method: 'GET', path: '/_standin/faults', handle: (deps) => ({ faults: deps.faults.list() }) },
  {
    method: 'POST',
    path: '/_standin/faults',
    handle: (deps, { body }) => {
      deps.faults.add(parse(FaultSchema, body));
      return { faults: deps.faults.list() };
    },
  },
  {
    method: 'DELETE',
    path: '/_standin/faults',
    handle: (deps, { query }) => {
      deps.faults.clear(query.get('account') ?? undefined);
      return { faults: deps.faults.list() };
    },
  },
  {
    method: 'POST',
    path: '/_standin/clock',
    handle: (deps, { body }) => ({ now: deps.store.advanceClock(parse(ClockSchema, body).advance_seconds) }),
  },
];
