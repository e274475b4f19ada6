/**
 * Subscriptions stored as checkout will activate them (shared/subscriptions/repository.ts), with a
 * card token from the simulated acquirer, for suites that drive the billing step with their own clock.
 */
import { detectBrand } from '../../shared/acquirer/cards.ts';
import { testCards } from '../../shared/acquirer/simulated.ts';
import { prefixedId } from '../../shared/core/ids.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { periodAt } from '../../shared/subscriptions/periods.ts';
import { storeSubscription } from '../../shared/subscriptions/repository.ts';
import type { Subscription } from '../../shared/subscriptions/subscription.ts';
import { simulatedAcquirer } from './acquirer.ts';
import type { TestAccount } from './stack.ts';

/**
 * A card token as checkout gets it from the acquirer for `merchant` (the card expires long after the
 * test dates); a token charges only for the merchant it was saved for. A card check, as a trial's
 * checkout makes: it moves no money, so the acquirer's books hold no charge cobro did not record.
 */
export async function cardToken(number: string, merchant: number): Promise<string> {
  const approved = await simulatedAcquirer().verify({
    amountMinor: 100,
    currency: 'USD',
    description: 'checkout',
    idempotencyKey: `token-${number}-${Math.random()}`,
    test: true,
    merchant,
    threeDSecure: 'challenge_allowed',
    card: { number, expMonth: 12, expYear: 2099, cvc: '123', holderName: 'Sub Scriber' },
  });
  if (approved.status !== 'approved') throw new Error(`card ${number} was not approved`);
  return approved.cardToken;
}

export interface Seed {
  account: TestAccount;
  planId: string;
  anchor: string;
  interval?: 'month' | 'year';
  count?: number;
  card?: string;
  trial?: boolean;
  customerId?: string;
}

/** An active (or trialing) subscription, paid for its first period at checkout (unless in trial). */
export async function subscribe(seed: Seed): Promise<Subscription> {
  const interval = seed.interval ?? 'month';
  const count = seed.count ?? 1;
  const anchor = new Date(seed.anchor);
  const first = periodAt(anchor, interval, count, 0);
  const number = seed.card ?? testCards.approved;
  const created = new Date(anchor.getTime() - (seed.trial ? 7 * 86_400_000 : 0)).toISOString();
  const subscription: Subscription = {
    id: prefixedId('sub'),
    developer_id: seed.account.developerId,
    mode: 'test',
    plan_id: seed.planId,
    plan: { name: 'Gold', amount: 1050, currency: 'USD', interval, interval_count: count },
    quantity: 2,
    customer_id: seed.customerId ?? null,
    status: seed.trial ? 'trialing' : 'active',
    active: true,
    statement_descriptor: 'COBRO GOLD',
    card_token: await cardToken(number, seed.account.developerId),
    card: { brand: detectBrand(number), last4: number.slice(-4) },
    anchor: anchor.toISOString(),
    trial_end: seed.trial ? anchor.toISOString() : null,
    paid_through: seed.trial ? -1 : 0,
    failed_attempts: 0,
    failed_at: null,
    next_action_at: (seed.trial ? anchor : first.end).toISOString(),
    version: 1,
    created_at: created,
    updated_at: created,
    canceled_at: null,
  };
  await storeSubscription(makeDeps(), subscription);
  return subscription;
}
