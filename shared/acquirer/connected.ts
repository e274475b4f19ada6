/**
 * The acquirer cobro calls: one port whose every call goes to the connector the account's mode is
 * connected to (docs/design.md#connectors), so no area names a connector. Each call carries its
 * merchant and mode (or, for a lookup, hints saying whose it was); the connection is read for the
 * call, never cached, so a mode disconnected a moment ago moves no more money.
 * - What a connector already holds goes back to it whatever the mode is connected to now: a refund
 *   to the connector that made its charge, a renewal to the one that saved its card, a lookup to the
 *   one the attempt asked. Refunds of earlier charges work in a mode since disconnected (D18).
 * - A new charge or checkout needs a connected mode: NotConnected otherwise.
 * - The ledger is every connector's: the simulated acquirer's books, and each Stripe account
 *   connected to a mode, so reconciliation compares cobro with all of them.
 */
import type { Mode } from '../core/account.ts';
import { modeOf } from '../core/account.ts';
import type { Deps } from '../db/deps.ts';
import {
  type Acquirer,
  type ApprovedCharge,
  CardEntryRefused,
  type ChargeRequest,
  type ConnectorName,
  connectorOfToken,
  type FoundCharge,
  type LedgerEntry,
  type LookupHints,
  NotConnected,
  type Settlement,
  type StoredChargeRequest,
  stripeAccountOfToken,
} from './acquirer.ts';
import {
  type Connection,
  type ConnectionRecord,
  connectionOf,
  getConnectionRecord,
  listStripeConnections,
  type StripeConnection,
  simulatedLiveAllowed,
  stripeAccountsOf,
  stripeCredentialsOf,
} from './connection.ts';

/**
 * Makes the Stripe connector of one Stripe account of a mode (`stripe`: the current one or a retired
 * one), its key opened; made once per account and connection version.
 */
export type StripeFactory = (record: ConnectionRecord, stripe: StripeConnection) => Promise<Acquirer>;

export interface ConnectedOptions {
  simulated: Acquirer;
  /** The Stripe connector's maker; absent where Stripe cannot be reached (a test of the simulated alone). */
  stripe?: StripeFactory;
}

/** An approval tagged with the connector (and account) that made it, as charges keep it. */
const tagged = <R extends { status: string }>(result: R, connector: ConnectorName, account?: string): R =>
  result.status === 'approved'
    ? ({ ...result, connector, ...(account ? { connectorAccount: account } : {}) } as R & ApprovedCharge)
    : result;

export function connectedAcquirer(deps: Deps, options: ConnectedOptions): Acquirer {
  const { simulated } = options;
  const made = new Map<string, Promise<Acquirer>>();

  function stripeOf(record: ConnectionRecord, stripe: StripeConnection): Promise<Acquirer> {
    if (!options.stripe) throw new Error('this process cannot reach Stripe');
    const cacheKey = `${record.developer_id}/${record.mode}/${stripe.account_id}/${record.version}`;
    let connector = made.get(cacheKey);
    if (!connector) {
      connector = options.stripe(record, stripe);
      // A failed opening (the key unreadable) is tried again by the next call.
      connector.catch(() => made.delete(cacheKey));
      made.set(cacheKey, connector);
    }
    return connector;
  }

  async function connectionFor(merchant: number, mode: Mode): Promise<Connection> {
    return connectionOf(mode, await getConnectionRecord(deps, merchant, mode));
  }

  /** The connector a new money movement of the account's mode goes to; NotConnected for none. */
  async function current(
    merchant: number,
    test: boolean,
  ): Promise<{ name: ConnectorName; acquirer: Acquirer; account?: string }> {
    const connection = await connectionFor(merchant, modeOf(test));
    if (connection.connector === 'none') throw new NotConnected(merchant, test);
    if (connection.connector === 'simulated') return { name: 'simulated', acquirer: simulated };
    const { record } = connection;
    return {
      name: 'stripe',
      acquirer: await stripeOf(record, record.stripe),
      account: record.stripe.account_id,
    };
  }

  /**
   * The connector `name` of the account's mode, for what it already holds: the simulated acquirer is
   * always reachable (its books are cobro's own table); a Stripe account while the mode is connected
   * to it or was (its credentials kept as retired), the one named when known.
   */
  async function holder(
    name: ConnectorName,
    merchant: number,
    test: boolean,
    account?: string,
  ): Promise<{ acquirer: Acquirer; account?: string }> {
    if (name === 'simulated') return { acquirer: simulated };
    const record = await getConnectionRecord(deps, merchant, modeOf(test));
    const stripe = stripeCredentialsOf(record, account);
    if (!record || !stripe)
      throw new NotConnected(merchant, test, 'no Stripe account that holds this is connected');
    return { acquirer: await stripeOf(record, stripe), account: stripe.account_id };
  }

  /**
   * Where a lookup goes: the connector that took the call (the attempt's; every attempt made before
   * connectors existed was the simulated acquirer's), never the account's present one.
   */
  const lookupTarget = (test: boolean, hints: LookupHints) =>
    holder(
      hints.connector ?? 'simulated',
      hints.merchant ?? 0,
      test,
      hints.connectorAccount ?? (hints.cardToken ? stripeAccountOfToken(hints.cardToken) : undefined),
    );

  /** Every Stripe account of every mode connected to Stripe now or before: whose books reconciliation reads. */
  async function* stripeAccounts(): AsyncIterable<Acquirer> {
    if (!options.stripe) return;
    for (const record of await listStripeConnections(deps))
      for (const stripe of stripeAccountsOf(record)) yield stripeOf(record, stripe);
  }

  /** A charge of a card typed into cobro's form: only a connector whose card entry is the form takes it. */
  async function formCharge(request: ChargeRequest) {
    const { name, acquirer } = await current(request.merchant, request.test);
    if ((acquirer.cardEntry ?? 'form') !== 'form')
      throw new CardEntryRefused(
        `the ${name} connector takes no card number: its checkout is on its own page`,
      );
    return { name, acquirer };
  }

  return {
    cardEntry: 'form',

    async charge(request) {
      const { name, acquirer } = await formCharge(request);
      return tagged(await acquirer.charge(request), name);
    },

    async verify(request) {
      const { name, acquirer } = await formCharge(request);
      return tagged(await acquirer.verify(request), name);
    },

    // Only cobro's own challenge page completes challenges: the simulated acquirer's.
    async completeChallenge(challengeId, outcome) {
      return tagged(await simulated.completeChallenge(challengeId, outcome), 'simulated');
    },

    async beginRedirect(request) {
      const { name, acquirer, account } = await current(request.merchant, request.test);
      if (!acquirer.beginRedirect) throw new Error(`the ${name} connector has no page of its own`);
      return { ...(await acquirer.beginRedirect(request)), ...(account ? { account } : {}) };
    },

    async readRedirect(challengeId, test, merchant) {
      const { acquirer, account } = await holder('stripe', merchant, test);
      if (!acquirer.readRedirect) throw new Error('the connector has no page of its own');
      return tagged(await acquirer.readRedirect(challengeId, test, merchant), 'stripe', account);
    },

    async chargeStored(request: StoredChargeRequest) {
      const name = connectorOfToken(request.cardToken);
      // A renewal is new money: the mode must still be connected (NotConnected otherwise). It goes to
      // the connector holding the card: Stripe while the mode is connected to it (never a retired
      // account); the simulated acquirer, whose cards move no real money, in test mode and wherever
      // it may serve live mode (the local stack), whatever the mode was connected to since.
      const present = await current(request.merchant, request.test);
      if (name === 'simulated' && (request.test || simulatedLiveAllowed()))
        return tagged(await simulated.chargeStored(request), name);
      const holding = stripeAccountOfToken(request.cardToken);
      if (present.name !== name || (holding && present.account !== holding))
        throw new NotConnected(
          request.merchant,
          request.test,
          `the card was saved with ${name}${holding ? ` (${holding})` : ''}, not ${present.name}${present.account ? ` (${present.account})` : ''}`,
        );
      return tagged(await present.acquirer.chargeStored(request), name, present.account);
    },

    async refund(request) {
      const { acquirer } = await holder(
        request.connector ?? 'simulated',
        request.merchant,
        request.test,
        request.connectorAccount,
      );
      return acquirer.refund(request);
    },

    async payout(request) {
      // cobro pays out only what the simulated acquirer holds; a real acquirer pays out on its own.
      return simulated.payout(request);
    },

    async findCharge(idempotencyKey, test, hints = {}): Promise<FoundCharge> {
      const { acquirer, account } = await lookupTarget(test, hints);
      const found = await acquirer.findCharge(idempotencyKey, test, hints);
      return acquirer === simulated ? found : tagged(found, 'stripe', account);
    },

    async findRefund(idempotencyKey, test, hints = {}) {
      return (await lookupTarget(test, hints)).acquirer.findRefund(idempotencyKey, test, hints);
    },

    async findPayout(idempotencyKey, test, hints = {}) {
      return simulated.findPayout(idempotencyKey, test, hints);
    },

    async *settlements(range): AsyncIterable<Settlement> {
      for await (const stripe of stripeAccounts()) if (stripe.settlements) yield* stripe.settlements(range);
    },

    async *ledger(range): AsyncIterable<LedgerEntry> {
      yield* simulated.ledger(range);
      for await (const stripe of stripeAccounts())
        for await (const entry of stripe.ledger(range)) yield { ...entry, connector: 'stripe' };
    },
  };
}
