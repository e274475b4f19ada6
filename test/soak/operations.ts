/**
 * The soak's workload: random money operations against its stack, as a merchant's servers, payers'
 * browsers and an operator do them (README "A first session with curl", "The operator CLI"):
 *
 * - one-off payments through the hosted checkout, with every test card (the lost answer of 7726,
 *   the refused refunds of 5126 and the processing error of 0119 among them), 3-D Secure
 *   challenges answered, now and then a double submit;
 * - subscription checkouts, some raced by a cancel (during the submit or the challenge's answer),
 *   and cancels of any subscription, racing renewals;
 * - payment link payments, some raced by the link's delete, and deletes of any link;
 * - refunds, full and partial, retried with the same Idempotency-Key after a 5xx;
 * - the legacy charge, retried with its Idempotency-Key after a 5xx;
 * - the operator's `billing run --now` (dates cycling one to four months ahead, so renewals and
 *   trial ends come due) and `payouts run --now` (three days ahead, so live charges are due);
 * - payout races: fresh live charges, then a `payouts run --account` of the soak's merchant and
 *   partial and full refunds of those same charges: refunds first, the run first, interleaved, or
 *   a refund of a charge the run has read but not yet marked paid out (its payouts made slow).
 *
 * It remembers what a later check needs: the subscriptions it canceled and the links it deleted,
 * with how their payments ended, every refund it asked for and what it was answered, and when a
 * payouts run said it had paid each charge out.
 */
import { randomUUID } from 'node:crypto';
import type { LocalInfo } from '../../infra/local/info.ts';
import { testCards } from '../../shared/acquirer/simulated.ts';
import { payoutShards } from '../../shared/charges/keys.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import type { Deps } from '../../shared/db/deps.ts';
import { shardOf } from '../../shared/db/keys.ts';
import { storeDeps } from './checks.ts';
import type { Faults } from './faults.ts';
import type { Answer, Http } from './http.ts';
import { chance, oneOf, pick, randomInt, sleep, type Weighted } from './random.ts';
import type { CliRun, SoakStack } from './stack.ts';
import type { Tally } from './tally.ts';

export type Mode = 'test' | 'live';

export interface Merchant {
  developerId: number;
  /** Authorization header values of its keys. */
  auth: Record<Mode, string>;
}

/** How a checkout page's payment ended, for the payer. */
export type PayOutcome =
  | 'paid'
  | 'declined'
  | 'unconfirmed'
  | 'conflict'
  | 'form again'
  | 'no page'
  | 'no answer'
  | `answered ${number}`;

interface Seen {
  id: string;
  mode: Mode;
  card: string;
  paid?: PayOutcome;
  /** What happened to it, for a reproduction. */
  story: string[];
  /** When the soak began working on it, and finished (faults armed meanwhile are in reproductions). */
  from: number;
  to: number;
}

export interface SubscriptionSeen extends Seen {
  plan: string;
  canceled: boolean;
}

export interface LinkSeen extends Seen {
  deleted: boolean;
}

/** A refund the soak asked for, and what it was answered. */
export interface RefundSent {
  chargeId: string;
  mode: Mode;
  /** The amount asked (major units), or undefined: the rest of the charge. */
  amount: string | undefined;
  /** Its Idempotency-Key was sent before (a retry after a 5xx answers the first request's outcome). */
  retry: boolean;
  /** The payout race it was part of (its order), if any. */
  race: RaceOrder | undefined;
  sent: number;
  answered: number;
  /** Undefined when no answer came. */
  status: number | undefined;
  /** A JSON error's title (`Charge status error`: the charge was paid out). */
  title: string | undefined;
  /** The refund's id when it answered 201. */
  refundId: string | undefined;
}

/**
 * How a payout race orders its payouts run and its refunds. `refund while the run holds it`: the
 * run's payouts are slow, and once it has marked one charge of a payout partition (so it has read
 * that partition's due charges and is paying the first out), the others of that partition are
 * refunded before it reaches them.
 */
export type RaceOrder = 'refunds first' | 'payout first' | 'interleaved' | 'refund while the run holds it';

/** A charge as GET /v1/payments/ lists it. */
export interface ListedCharge {
  id: string;
  subscription_id: string | null;
  payment_link_id: string | null;
  amount: number;
  amount_refunded: number;
  currency: string;
  created_on: string;
  card_last4: string;
  description: string | null;
}

/** A subscription.updated the soak read back: the subscription and the charge that paid for it. */
export interface UpdatedSeen {
  subscriptionId: string;
  chargeId: string | undefined;
}

const c = testCards;

/** Cards for one-off payments: mostly approvals, and every test card's behaviour (docs/design.md#test-cards). */
const oneOffCards: Weighted<string>[] = [
  [c.approved, 34],
  [c.challenge, 12],
  [c.genericDecline, 4],
  [c.insufficientFunds, 3],
  [c.expiredCard, 2],
  [c.incorrectCvc, 2],
  [c.declinesWhenStored, 5],
  [c.answerLost, 9],
  [c.refundsRefused, 9],
  [c.processingError, 5],
];

/**
 * Cards for subscriptions: all of them too. 7726's renewals lose their answers (billing runs record
 * them unconfirmed and recovery finishes them: attempts keep the wall clock's times, whatever
 * `--now` a run bills at); 5126's automatic refunds are refused; 0341's renewals decline.
 */
const subscriptionCards = oneOffCards;

/** Cards for payment links: all of them (a link's payment is one charge, as a one-off payment's). */
const linkCards = oneOffCards;

/** The legacy charge has no 3-D Secure: no challenge card. */
const legacyCards: Weighted<string>[] = [
  [c.approved, 50],
  [c.answerLost, 15],
  [c.refundsRefused, 10],
  [c.genericDecline, 10],
  [c.processingError, 5],
];

const refundReasons = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;
const goodYear = String(new Date().getUTCFullYear() + 3);

/** An amount in major units with two decimals, from 2.00 to 90.00. */
const amount = () => (randomInt(200, 9_000) / 100).toFixed(2);
const currency = () =>
  pick<string>([
    ['USD', 4],
    ['EUR', 1],
  ]);

/** A handful of payers, so the checkout's customer look-up by e-mail meets the same payer often. */
const payer = () => `payer-${randomInt(1, 25)}@soak.example`;

const csrfOf = (html: string) => /<input type="hidden" name="csrf_token" value="([^"]*)">/.exec(html)?.[1];
const isChallenge = (answer: Answer) => answer.status === 200 && answer.text.includes('name="outcome"');

/** Counted labels of checkout pages: a 200 says whether it is a challenge, a form or a final page. */
function pageLabel(answer: Answer): string {
  if (answer.status !== 200) return String(answer.status);
  if (isChallenge(answer)) return '200 challenge';
  return csrfOf(answer.text) ? '200 form' : '200 final page';
}

function outcomeOf(answer: Answer | undefined): PayOutcome {
  if (!answer) return 'no answer';
  if (answer.status === 303) return 'paid';
  if (answer.status === 200) return csrfOf(answer.text) ? 'form again' : 'paid'; // a link's receipt
  if (answer.status === 202) return 'unconfirmed';
  if (answer.status === 402) return 'declined';
  if (answer.status === 409) return 'conflict';
  return `answered ${answer.status}`;
}

/** Something done beside a payment: during its submit, or during its challenge's answer. */
interface Race {
  during: 'submit' | 'challenge';
  run: () => Promise<void>;
}

/** With a challenge card, most races hit the challenge's answer; otherwise they hit the submit. */
const raceDuring = (card: string): Race['during'] =>
  card === c.challenge && chance(0.7) ? 'challenge' : 'submit';

/** Runs `run` after a pause of up to `ms`, so it lands anywhere in the request it races. */
const soon = async (run: () => Promise<void>, ms: number) => {
  await sleep(randomInt(0, ms));
  await run();
};

export class Workload {
  readonly subscriptions: SubscriptionSeen[] = [];
  readonly links: LinkSeen[] = [];
  /** Sums of the JSON summaries `billing run` and `payouts run` printed. */
  readonly billing: Record<string, number> = {};
  readonly payouts: Record<string, number> = {};
  /** The latest `--now` a billing run used: the soak's records reach that far. */
  latestBillingDate: Date | undefined;
  /** Every refund the soak asked for, in the order sent. */
  readonly refunds: RefundSent[] = [];
  /** When the first payouts run that printed a charge among its `charge_ids` had exited, by charge. */
  readonly paidOutBy = new Map<string, number>();
  /** Payout races run, by order. */
  readonly races: Record<RaceOrder, number> = {
    'refunds first': 0,
    'payout first': 0,
    interleaved: 0,
    'refund while the run holds it': 0,
  };
  readonly #http: Http;
  readonly #tally: Tally;
  readonly #stack: SoakStack;
  readonly #merchant: Merchant;
  readonly #faults: Pick<Faults, 'arm'>;
  readonly #plans: Record<Mode, { id: string; name: string }[]> = { test: [], live: [] };
  /** The Idempotency-Keys of the refunds sent so far: a key sent again is a retry. */
  readonly #refundKeys = new Set<string>();
  /** The stack's table, through a client made for the stack's current start. */
  #stored: { info: LocalInfo; deps: Deps } | undefined;
  #billingCycle = 0;

  constructor(http: Http, tally: Tally, stack: SoakStack, merchant: Merchant, faults: Pick<Faults, 'arm'>) {
    this.#http = http;
    this.#tally = tally;
    this.#stack = stack;
    this.#merchant = merchant;
    this.#faults = faults;
  }

  get #api(): string {
    return this.#stack.info?.api_url ?? '';
  }

  /** Live now and then: live charges are what payouts pay out. */
  #mode(): Mode {
    return chance(0.3) ? 'live' : 'test';
  }

  /** The plans subscriptions take, in both modes: monthly, monthly with a trial, and one in EUR. */
  async setup(): Promise<void> {
    const plans = [
      { name: 'Soak monthly', amount: '12.00', currency: 'USD', interval: 'month', interval_count: 1 },
      {
        name: 'Soak trial',
        amount: '9.50',
        currency: 'USD',
        interval: 'month',
        interval_count: 1,
        trial_period_days: 7,
      },
      { name: 'Soak euro', amount: '15.00', currency: 'EUR', interval: 'month', interval_count: 1 },
      // What an upgrade moves a monthly subscription to (a change of plan, same currency and interval).
      { name: 'Soak plus', amount: '20.00', currency: 'USD', interval: 'month', interval_count: 1 },
    ];
    for (const mode of ['test', 'live'] as const) {
      for (const plan of plans) {
        const created = await this.#http.send('setup: plan create', 'POST', `${this.#api}/v1/plans/`, {
          auth: this.#merchant.auth[mode],
          json: plan,
        });
        if (created?.status !== 201)
          throw new Error(`could not create a plan: ${created?.status} ${created?.text}`);
        const id = (created.json as { data: { id: string } }).data.id;
        this.#plans[mode].push({ id, name: `${plan.name} (${plan.amount} ${plan.currency}, ${mode})` });
      }
    }
  }

  /** Picks one operation by weight and runs it. */
  async randomOperation(): Promise<void> {
    const operation = pick<() => Promise<void>>([
      [() => this.payment(), 28],
      [() => this.subscription(), 16],
      [() => this.cancelOne(), 5],
      [() => this.changeOne(), 8],
      [() => this.link(), 16],
      [() => this.deleteOneLink(), 4],
      [() => this.refund(), 20],
      [() => this.legacy(), 8],
    ]);
    await operation();
  }

  /**
   * Pays a hosted checkout page as a browser without JavaScript does: opens it for its CSRF token,
   * posts the card form (twice at once when `double`, a double click), and answers a 3-D Secure
   * challenge when asked (pass, now and then fail). `race` runs beside the submit or beside the
   * challenge's answer.
   */
  async #pay(
    kind: string,
    url: string,
    card: string,
    seen: Pick<Seen, 'story'>,
    options: {
      race?: Race;
      double?: boolean;
      note?: () => string | undefined;
    } = {},
  ): Promise<PayOutcome> {
    const http = this.#http;
    const page = await http.send(`${kind} page`, 'GET', url, { label: pageLabel });
    const csrf = page?.status === 200 ? csrfOf(page.text) : undefined;
    if (!csrf) {
      seen.story.push(`GET ${url} → ${page?.status ?? 'no answer'}`);
      return 'no page';
    }
    const form = {
      csrf_token: csrf,
      email: payer(),
      cardholder_name: 'Soak Payer',
      card_number: card,
      exp_month: '12',
      exp_year: goodYear,
      cvc: '123',
    };
    const submit = async () => {
      const sent = Date.now();
      const answer = await http.send(`${kind} submit`, 'POST', url, {
        form,
        label: pageLabel,
        ...(options.note ? { note: options.note } : {}),
      });
      seen.story.push(
        `POST ${url} card ${card} (sent ${this.#tally.at(sent)}) → ${answer ? pageLabel(answer) : 'no answer'}`,
      );
      return answer;
    };
    const race = options.race;
    const [answer] = await Promise.all([
      submit(),
      ...(options.double ? [submit()] : []),
      ...(race?.during === 'submit' ? [soon(race.run, 400)] : []),
    ]);
    if (!answer || !isChallenge(answer)) {
      // The challenge did not come (a decline, a fault, a kill): what was to race it comes after.
      if (race?.during === 'challenge') await race.run();
      return outcomeOf(answer);
    }
    const outcome = chance(0.85) ? 'pass' : 'fail';
    const answering = async () => {
      const sent = Date.now();
      const final = await http.send(`${kind} challenge`, 'POST', `${url}/challenge`, {
        form: { csrf_token: csrfOf(answer.text) ?? csrf, outcome },
        label: pageLabel,
        ...(options.note ? { note: options.note } : {}),
      });
      seen.story.push(
        `POST ${url}/challenge outcome=${outcome} (sent ${this.#tally.at(sent)}) → ${final ? pageLabel(final) : 'no answer'}`,
      );
      return final;
    };
    const [final] = await Promise.all([
      answering(),
      ...(race?.during === 'challenge' ? [soon(race.run, 300)] : []),
    ]);
    return outcomeOf(final);
  }

  /** POST /v1/payments/, then its checkout page paid. */
  async payment(): Promise<void> {
    const mode = this.#mode();
    const created = await this.#http.send('payment create', 'POST', `${this.#api}/v1/payments/`, {
      auth: this.#merchant.auth[mode],
      json: {
        amount: amount(),
        description: 'Soak order',
        currency: currency(),
        items: ['Soak item'],
        return_url: 'https://shop.example/return',
      },
    });
    if (created?.status !== 202) return;
    const url = (created.json as { data: { redirect: string } }).data.redirect;
    await this.#pay('payment', url, pick(oneOffCards), { story: [] }, { double: chance(0.1) });
  }

  async #cancel(seen: SubscriptionSeen, kind: string): Promise<Answer | undefined> {
    const sent = Date.now();
    const answer = await this.#http.send(kind, 'DELETE', `${this.#api}/v1/subscriptions/${seen.id}`, {
      auth: this.#merchant.auth[seen.mode],
    });
    seen.story.push(
      `DELETE /v1/subscriptions/${seen.id} (sent ${this.#tally.at(sent)}) → ${answer?.status ?? 'no answer'}`,
    );
    if (answer?.status === 200) seen.canceled = true;
    return answer;
  }

  /** POST /v1/subscriptions, its checkout paid; a third of them raced by their cancel. */
  async subscription(): Promise<void> {
    const mode = this.#mode();
    const plan = oneOf(this.#plans[mode]);
    const created = await this.#http.send('subscription create', 'POST', `${this.#api}/v1/subscriptions`, {
      auth: this.#merchant.auth[mode],
      json: { plan_id: plan.id, return_url: 'https://shop.example/welcome' },
    });
    if (created?.status !== 201) return;
    const data = (created.json as { data: { subscription_id: string; checkout_url: string } }).data;
    const card = pick(subscriptionCards);
    const seen: SubscriptionSeen = {
      id: data.subscription_id,
      mode,
      plan: plan.name,
      card,
      canceled: false,
      story: [`POST /v1/subscriptions plan ${plan.name} → 201 ${data.subscription_id}`],
      from: Date.now(),
      to: Date.now(),
    };
    this.subscriptions.push(seen);
    const race: Race | undefined = chance(0.35)
      ? {
          during: raceDuring(card),
          run: async () => {
            await this.#cancel(seen, 'subscription cancel (racing its checkout)');
          },
        }
      : undefined;
    seen.paid = await this.#pay('subscription', data.checkout_url, card, seen, {
      ...(race ? { race } : {}),
      note: () => `subscription ${seen.id}: ${seen.story.join('; ')}`,
    });
    seen.to = Date.now();
  }

  /** Cancels a subscription the soak made (it may be renewing right now). */
  async cancelOne(): Promise<void> {
    const open = this.subscriptions.filter((seen) => !seen.canceled);
    if (open.length === 0) return;
    const seen = oneOf(open);
    await this.#cancel(seen, 'subscription cancel');
    seen.to = Date.now();
  }

  /**
   * PUT /v1/subscriptions/{id} on a subscription the soak made (decision D19): a higher quantity or
   * the bigger plan (an upgrade: a prorated charge, a D15 attempt keyed by the Idempotency-Key), or
   * an end at the period's end set or undone; a fifth of them raced by the subscription's cancel. A
   * 5xx is sent again with the same key, as a client must.
   */
  async changeOne(): Promise<void> {
    const open = this.subscriptions.filter((seen) => !seen.canceled);
    if (open.length === 0) return;
    const seen = oneOf(open);
    const plus = this.#plans[seen.mode].find((plan) => plan.name.startsWith('Soak plus'));
    const body = pick<Record<string, unknown>>([
      [{ quantity: randomInt(2, 4) }, 4],
      [plus ? { plan_id: plus.id } : { quantity: 2 }, 3],
      [{ cancel_at_period_end: chance(0.7) }, 3],
    ]);
    const key = `soak-change-${randomUUID()}`;
    const put = async (kind: string) => {
      const sent = Date.now();
      const answer = await this.#http.send(kind, 'PUT', `${this.#api}/v1/subscriptions/${seen.id}`, {
        auth: this.#merchant.auth[seen.mode],
        json: body,
        headers: { 'Idempotency-Key': key },
      });
      seen.story.push(
        `PUT /v1/subscriptions/${seen.id} ${JSON.stringify(body)} (sent ${this.#tally.at(sent)}) → ${answer?.status ?? 'no answer'}`,
      );
      return answer;
    };
    const change = this.#withRetries('subscription change', put);
    if (chance(0.2)) await Promise.all([change, this.#cancel(seen, 'subscription cancel (racing a change)')]);
    else await change;
    seen.to = Date.now();
  }

  /** Every `subscription.updated` of `mode`: which subscription, and the charge that paid for it. */
  async allUpdates(mode: Mode): Promise<UpdatedSeen[]> {
    const updates: UpdatedSeen[] = [];
    for (let page = 1; ; page++) {
      const listed = await this.#http.send(
        'final check: subscription.updated events',
        'GET',
        `${this.#api}/v1/events/?type=subscription.updated&page=${page}&page_size=100`,
        { auth: this.#merchant.auth[mode] },
      );
      const json = listed?.json as
        | {
            results?: { data: { object: { subscription_id: string }; charge_id?: string } }[];
            next?: unknown;
          }
        | undefined;
      if (listed?.status === 404 && page > 1) return updates;
      if (listed?.status !== 200 || !json?.results)
        throw new Error(`GET /v1/events/ answered ${listed?.status}`);
      for (const event of json.results)
        updates.push({ subscriptionId: event.data.object.subscription_id, chargeId: event.data.charge_id });
      if (!json.next || json.results.length === 0) return updates;
    }
  }

  async #deleteLink(seen: LinkSeen, kind: string): Promise<Answer | undefined> {
    const sent = Date.now();
    const answer = await this.#http.send(kind, 'DELETE', `${this.#api}/v1/payment-links/${seen.id}/`, {
      auth: this.#merchant.auth[seen.mode],
    });
    seen.story.push(
      `DELETE /v1/payment-links/${seen.id}/ (sent ${this.#tally.at(sent)}) → ${answer?.status ?? 'no answer'}`,
    );
    if (answer?.status === 200) seen.deleted = true;
    return answer;
  }

  /** POST /v1/payment-links/, its page paid; a third of them raced by the link's delete. */
  async link(): Promise<void> {
    const mode = this.#mode();
    const body = { description: 'Soak lesson', amount: amount(), currency: currency() };
    const created = await this.#http.send('link create', 'POST', `${this.#api}/v1/payment-links/`, {
      auth: this.#merchant.auth[mode],
      json: body,
    });
    if (created?.status !== 201) return;
    const data = (created.json as { data: { id: string; link: string } }).data;
    const card = pick(linkCards);
    const seen: LinkSeen = {
      id: data.id,
      mode,
      card,
      deleted: false,
      story: [`POST /v1/payment-links/ ${JSON.stringify(body)} (${mode}) → 201 ${data.id}`],
      from: Date.now(),
      to: Date.now(),
    };
    this.links.push(seen);
    const race: Race | undefined = chance(0.35)
      ? {
          during: raceDuring(card),
          run: async () => {
            await this.#deleteLink(seen, 'link delete (racing its payment)');
          },
        }
      : undefined;
    seen.paid = await this.#pay('link', data.link, card, seen, {
      ...(race ? { race } : {}),
      note: () => `payment link ${seen.id}: ${seen.story.join('; ')}`,
    });
    seen.to = Date.now();
  }

  /** Deletes a payment link the soak made. */
  async deleteOneLink(): Promise<void> {
    const open = this.links.filter((seen) => !seen.deleted);
    if (open.length === 0) return;
    const seen = oneOf(open);
    await this.#deleteLink(seen, 'link delete');
    seen.to = Date.now();
  }

  /**
   * Sends a POST with an Idempotency-Key (`send`); after a 5xx, most times sends the same request
   * with the same key again: after a 504 (no outcome yet) up to 4 times while it answers 504 or 409
   * (the first still running), as a client must (README "Payments, the hosted checkout and
   * refunds"); after a 502 (a definite refusal, not kept) once, which runs it again as new.
   */
  async #withRetries(kind: string, send: (kind: string) => Promise<Answer | undefined>): Promise<void> {
    let answer = await send(kind);
    if (!answer || answer.status < 500 || !chance(0.75)) return;
    for (let retry = 1; retry <= 4; retry++) {
      await sleep(randomInt(500, 2_500));
      answer = await send(`${kind} retry (same Idempotency-Key)`);
      if (!answer || answer.status === 502 || (answer.status < 500 && answer.status !== 409)) return;
    }
  }

  /**
   * POST /v1/refunds/ of `chargeId`, `amount` of it or the rest, under `key` (a new one when not
   * given); remembered in `refunds` with its answer. A retry sends the same `key` and `reason`: the
   * same request, or its key would answer 409 as reused for another.
   */
  async #refund(
    kind: string,
    chargeId: string,
    mode: Mode,
    options: { amount?: string; key?: string; reason?: string; race?: RaceOrder } = {},
  ): Promise<Answer | undefined> {
    const key = options.key ?? `soak-refund-${randomUUID()}`;
    const body = {
      charge_id: chargeId,
      reason: options.reason ?? oneOf(refundReasons),
      ...(options.amount === undefined ? {} : { amount: options.amount }),
    };
    const sent = Date.now();
    const retry = this.#refundKeys.has(key);
    this.#refundKeys.add(key);
    const answer = await this.#http.send(kind, 'POST', `${this.#api}/v1/refunds/`, {
      auth: this.#merchant.auth[mode],
      json: body,
      headers: { 'Idempotency-Key': key },
    });
    const json = (answer?.json ?? {}) as { id?: unknown; title?: unknown };
    this.refunds.push({
      chargeId,
      mode,
      amount: options.amount,
      retry,
      race: options.race,
      sent,
      answered: Date.now(),
      status: answer?.status,
      title: typeof json.title === 'string' ? json.title : undefined,
      refundId: answer?.status === 201 && typeof json.id === 'string' ? json.id : undefined,
    });
    return answer;
  }

  /** A refund of a recent charge, in full or in part. */
  async refund(): Promise<void> {
    const mode = this.#mode();
    const auth = this.#merchant.auth[mode];
    const listed = await this.#http.send('charges list', 'GET', `${this.#api}/v1/payments/?limit=100`, {
      auth,
    });
    if (listed?.status !== 200 || !Array.isArray(listed.json)) return;
    const refundable = (listed.json as ListedCharge[]).filter(
      (charge) => charge.amount_refunded < charge.amount,
    );
    if (refundable.length === 0) return;
    const charge = oneOf(refundable);
    const leftCents = Math.round((charge.amount - charge.amount_refunded) * 100);
    const partial = chance(0.5) && leftCents > 100;
    const options = {
      key: `soak-refund-${randomUUID()}`,
      reason: oneOf(refundReasons),
      ...(partial ? { amount: (randomInt(100, leftCents - 1) / 100).toFixed(2) } : {}),
    };
    await this.#withRetries('refund', (kind) => this.#refund(kind, charge.id, mode, options));
  }

  /** A live charge through the legacy charge (one request): its id, or undefined when not made. */
  async #liveCharge(): Promise<{ id: string; amount: number } | undefined> {
    const answer = await this.#http.send(
      'payout race: live charge',
      'POST',
      `${this.#api}/v1/charges/simple/create/`,
      {
        auth: this.#merchant.auth.live,
        form: {
          amount: amount(),
          currency: currency().toLowerCase(),
          // Mostly approved; now and then a card whose refunds the acquirer refuses (502).
          credit_card_number: chance(0.85) ? c.approved : c.refundsRefused,
          credit_card_security_code_number: '123',
          exp_month: '12',
          exp_year: goodYear,
        },
        headers: { 'Idempotency-Key': `soak-race-charge-${randomUUID()}` },
      },
    );
    const charge = answer?.status === 201 ? (answer.json as { id?: unknown; amount?: unknown }) : undefined;
    return typeof charge?.id === 'string' && typeof charge.amount === 'number'
      ? { id: charge.id, amount: charge.amount }
      : undefined;
  }

  /**
   * The refunds a race sends for one charge, one after the other: a part, the rest, a part and
   * then the rest, or two parts (a part is at most a third of the charge, so two fit).
   */
  async #raceRefunds(charge: { id: string; amount: number }, order: RaceOrder): Promise<void> {
    const cents = Math.round(charge.amount * 100);
    const part = () => (randomInt(100, Math.max(100, Math.floor(cents / 3))) / 100).toFixed(2);
    const amounts = pick<(string | undefined)[]>([
      [[part()], 3],
      [[undefined], 2],
      [[part(), undefined], 2],
      [[part(), part()], 2],
    ]);
    for (const [index, refundAmount] of amounts.entries()) {
      if (index > 0) await sleep(randomInt(0, 600));
      await this.#refund(`payout race: ${refundAmount ? 'partial' : 'full'} refund`, charge.id, 'live', {
        ...(refundAmount ? { amount: refundAmount } : {}),
        race: order,
      });
    }
  }

  /**
   * A payout race: fresh live charges, then a `payouts run` of the soak's merchant and refunds of
   * those same charges: the refunds first (then one more refund after the run), the run first,
   * both at once (each refund starting anywhere in the run's first seconds), or a refund made while
   * the run holds its charge (#refundWhileHeld). Whichever reaches a charge first must win: a refund
   * held first is paid out net of it, a payout made first turns every later refund into 409.
   */
  async payoutRace(): Promise<void> {
    const order = pick<RaceOrder>([
      ['refunds first', 1],
      ['payout first', 1],
      ['interleaved', 1],
      ['refund while the run holds it', 1],
    ]);
    const held = order === 'refund while the run holds it';
    // Enough charges that some share one of the payout partitions, where one waits for another.
    const count = held ? randomInt(4, 6) : randomInt(1, 3);
    const made = await Promise.all(Array.from({ length: count }, () => this.#liveCharge()));
    const charges = made.filter((charge) => charge !== undefined);
    if (charges.length === 0) return;
    this.races[order] += 1;
    const run = () =>
      this.payoutsRun(`payouts run (race, ${order})`, ['--account', String(this.#merchant.developerId)]);
    if (order === 'refunds first') {
      await Promise.all(charges.map((charge) => this.#raceRefunds(charge, order)));
      await run();
      await Promise.all(
        charges.map((charge) =>
          this.#refund('payout race: refund after the run', charge.id, 'live', { race: order }),
        ),
      );
    } else if (order === 'payout first') {
      await run();
      await Promise.all(charges.map((charge) => this.#raceRefunds(charge, order)));
    } else if (order === 'interleaved') {
      // A CLI run takes a second or two to start and pay out: the refunds land before, during and after.
      await Promise.all([
        run(),
        ...charges.map((charge) => soon(() => this.#raceRefunds(charge, order), 2_500)),
      ]);
    } else {
      await this.#refundWhileHeld(charges, run);
    }
  }

  /**
   * A payouts run reads a partition's due charges, then pays them out one by one: with its payouts
   * slow, once it has marked the first of a partition it holds the others, read, for seconds. A
   * refund of one of those made meanwhile must count in its payout (or the run must leave it).
   * The charges' partitions are known (shardOf, as the charges' keys place them); the soak watches
   * the table for the first mark and refunds the rest of that partition at once.
   */
  async #refundWhileHeld(charges: { id: string; amount: number }[], run: () => Promise<void>): Promise<void> {
    const order: RaceOrder = 'refund while the run holds it';
    const partitions = new Map<number, { id: string; amount: number }[]>();
    for (const charge of charges) {
      const shard = shardOf(charge.id, payoutShards);
      partitions.set(shard, [...(partitions.get(shard) ?? []), charge]);
    }
    const watched = [...partitions.values()].filter((group) => group.length >= 2).flat();
    await this.#faults.arm({
      operation: 'payout',
      effect: 'slow',
      // Long enough for the soak to see the first mark and refund the others on a busy machine.
      delayMs: 3_000,
      times: charges.length + 2,
    });
    let done = false;
    const running = run().finally(() => {
      done = true;
    });
    // The charges the run has read but not marked yet: the others of a partition it marked one of.
    let held: { id: string; amount: number }[] = [];
    const scope = { developerId: this.#merchant.developerId, mode: 'live' as const };
    while (!done && watched.length > 0 && held.length === 0) {
      const info = this.#stack.info;
      if (!info) break;
      // A kill of the stack ends the watch: the refunds then go after the run, as in other orders.
      const records = await Promise.all(
        watched.map((charge) => getCharge(this.#store(info), scope, charge.id)),
      ).catch(() => undefined);
      if (!records) break;
      const marked = new Set(records.flatMap((record) => (record?.paid_out_at ? [record.id] : [])));
      held = watched.filter(
        (charge) =>
          !marked.has(charge.id) &&
          [...marked].some((id) => shardOf(id, payoutShards) === shardOf(charge.id, payoutShards)),
      );
      if (held.length === 0) await sleep(100);
    }
    await Promise.all(
      held.map((charge) =>
        this.#refund('payout race: partial refund (run holds it)', charge.id, 'live', {
          amount: Math.max(1, Math.floor(charge.amount / 3)).toFixed(2),
          race: order,
        }),
      ),
    );
    await running;
    // The rest of the race's charges, refunded after the run: 409 for every one it paid out.
    await Promise.all(
      charges
        .filter((charge) => !held.includes(charge))
        .map((charge) =>
          this.#refund('payout race: refund after the run', charge.id, 'live', { race: order }),
        ),
    );
  }

  /** The stack's table, as its own functions reach it: a client per start of the stack. */
  #store(info: LocalInfo): Deps {
    if (this.#stored?.info !== info) this.#stored = { info, deps: storeDeps(info) };
    return this.#stored.deps;
  }

  /** The deprecated direct charge, with an Idempotency-Key. */
  async legacy(): Promise<void> {
    const mode = this.#mode();
    const form = {
      amount: amount(),
      currency: currency().toLowerCase(),
      credit_card_number: pick(legacyCards),
      credit_card_security_code_number: '123',
      exp_month: '12',
      exp_year: goodYear,
    };
    const headers = { 'Idempotency-Key': `soak-legacy-${randomUUID()}` };
    await this.#withRetries('legacy charge', (kind) =>
      this.#http.send(kind, 'POST', `${this.#api}/v1/charges/simple/create/`, {
        auth: this.#merchant.auth[mode],
        form,
        headers,
      }),
    );
  }

  /**
   * Runs an operator command and counts its exit. Exit 0 is expected; anything else is a finding
   * unless a kill overlapped it (the CLI then finds no stack, or loses its DynamoDB).
   */
  async #operator(kind: string, args: string[]): Promise<CliRun & { killedBy: string | undefined }> {
    const start = Date.now();
    const run = await this.#stack.cli(args);
    const end = Date.now();
    const label = `exit ${run.code}`;
    const killedBy = this.#tally.disruptedBy(start, end);
    this.#tally.count(kind, run.code !== 0 && killedBy ? `${label} (kill)` : label);
    if (run.code !== 0 && !killedBy)
      this.#tally.find({
        title: `${kind} exited ${run.code}`,
        detail: [
          `${run.command} (from ${this.#tally.at(start)} to ${this.#tally.at(end)})`,
          `stderr: ${run.stderr.trim().slice(-800)}`,
        ],
      });
    return { ...run, killedBy };
  }

  /** Adds the numbers of a CLI's JSON summary (nested objects flattened as `a.b`) to `into`. */
  #sum(into: Record<string, number>, json: unknown, prefix = ''): void {
    for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
      if (typeof value === 'number') into[`${prefix}${key}`] = (into[`${prefix}${key}`] ?? 0) + value;
      else if (value && typeof value === 'object' && !Array.isArray(value) && key !== 'totals')
        this.#sum(into, value, `${prefix}${key}.`);
    }
  }

  /** One operator command: a billing run at the next date of its cycle, or a payouts run. */
  async operatorStep(): Promise<void> {
    if (chance(0.6)) {
      // One to four months ahead, cycling: new subscriptions come due at the near dates, and no
      // run catches up more than four periods of any subscription at once.
      const months = 1 + (this.#billingCycle++ % 4);
      await this.billingRun(new Date(Date.now() + months * 31 * 86_400_000 + 3_600_000));
    } else {
      await this.payoutsRun();
    }
  }

  async billingRun(now: Date, kind = 'billing run'): Promise<void> {
    if (!this.latestBillingDate || now > this.latestBillingDate) this.latestBillingDate = now;
    const run = await this.#operator(kind, ['billing', 'run', '--now', now.toISOString()]);
    if (run.code !== 0) return;
    const summary = JSON.parse(run.stdout) as { failed?: number };
    this.#sum(this.billing, summary);
    this.billing.runs = (this.billing.runs ?? 0) + 1;
    // A step that fails is retried by the next run (README "The operator CLI"); outside a kill,
    // where the run loses its DynamoDB, a failing step is a finding.
    if (summary.failed && !run.killedBy)
      this.#tally.find({
        title: `${kind} counted ${summary.failed} failed steps`,
        detail: [run.command, `summary: ${run.stdout.trim()}`, `stderr: ${run.stderr.trim().slice(-800)}`],
      });
  }

  /**
   * Pays out the live charges made more than two days before `now` (three days from now: every
   * charge made now, but not a renewal a billing run dated ahead), `args` may add `--account`.
   * Remembers when it said it paid each one out.
   */
  async payoutsRun(
    kind = 'payouts run',
    args: string[] = [],
    now = new Date(Date.now() + 3 * 86_400_000),
  ): Promise<void> {
    const run = await this.#operator(kind, ['payouts', 'run', '--now', now.toISOString(), ...args]);
    if (run.code !== 0) return;
    const exited = Date.now();
    const summary = JSON.parse(run.stdout) as { charge_ids: string[] };
    for (const id of summary.charge_ids) if (!this.paidOutBy.has(id)) this.paidOutBy.set(id, exited);
    this.#sum(this.payouts, summary);
    this.payouts.runs = (this.payouts.runs ?? 0) + 1;
  }

  /** Every charge of the merchant in `mode`, newest first, page by page (created_before). */
  async allCharges(mode: Mode): Promise<ListedCharge[]> {
    const charges = new Map<string, ListedCharge>();
    let before: string | undefined;
    for (;;) {
      const query = `limit=1000${before ? `&created_before=${encodeURIComponent(before)}` : ''}`;
      const listed = await this.#http.send(
        'final check: charges list',
        'GET',
        `${this.#api}/v1/payments/?${query}`,
        {
          auth: this.#merchant.auth[mode],
        },
      );
      if (listed?.status !== 200 || !Array.isArray(listed.json))
        throw new Error(`GET /v1/payments/ answered ${listed?.status}`);
      const page = listed.json as ListedCharge[];
      const fresh = page.filter((charge) => !charges.has(charge.id));
      for (const charge of page) charges.set(charge.id, charge);
      const last = page[page.length - 1];
      if (page.length < 1000 || fresh.length === 0 || !last) return [...charges.values()];
      before = last.created_on;
    }
  }

  /** The subscription's single view (its status and customer), or undefined. */
  async subscriptionView(
    seen: SubscriptionSeen,
  ): Promise<{ status: string; customer_id: string | null } | undefined> {
    const view = await this.#http.send(
      'final check: subscription',
      'GET',
      `${this.#api}/v1/subscriptions/${seen.id}`,
      {
        auth: this.#merchant.auth[seen.mode],
      },
    );
    return view?.status === 200 ? (view.json as { status: string; customer_id: string | null }) : undefined;
  }
}
