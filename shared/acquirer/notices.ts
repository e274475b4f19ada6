/**
 * What an acquirer tells cobro by itself (docs/design.md#stripe-events): Stripe's signed events,
 * turned into connector-neutral notices that the connectors area acts on. An event is taken only
 * when its `Stripe-Signature` verifies (with the package's own helper) under the signing secret of
 * the account's Stripe connection, in one of its modes; then cobro reads the event back from Stripe
 * by its id, and the object it names back from Stripe too, and acts on what it read, never on the
 * body posted: an event Stripe no longer confirms (or whose object is not cobro's) is `ignored`.
 */
import type Stripe from 'stripe';
import type { Mode } from '../core/account.ts';
import { envNames } from '../core/config.ts';
import type { Deps } from '../db/deps.ts';
import type { DeclineReason } from './acquirer.ts';
import { connectorSecrets, getConnectionRecord, stripeAccountsOf } from './connection.ts';

/** A dispute as cobro keeps it: never more than Stripe's public facts about it. */
export interface DisputeNotice {
  id: string;
  amountMinor: number;
  currency: string;
  reason: string;
  status: string;
  /** When Stripe opened it (ISO 8601). */
  createdAt: string;
}

/** What an acquirer's event asks of cobro, once read back from the acquirer. */
export type Notice =
  /** A checkout on the acquirer's page changed (paid, or closed): finish the attempt. */
  | { kind: 'checkout'; attemptId: string }
  /**
   * A payment of cobro's changed (a renewal's: finish the attempt); `declineReason` when Stripe
   * declined a card the payer tried on its page (the checkout still waits for another).
   */
  | { kind: 'payment'; attemptId: string; declineReason?: DeclineReason }
  /** A refund cobro asked for changed. */
  | { kind: 'refund'; attemptId: string }
  /** A cardholder disputed a charge cobro made (found by the attempt that made it). */
  | { kind: 'dispute'; attemptId: string; dispute: DisputeNotice }
  /** The acquirer paid out: the charges it settled, by the attempts that made them, with their net. */
  | { kind: 'payout'; payoutId: string; paidAt: string; settled: { attemptId: string; netMinor: number }[] }
  /** Nothing for cobro to do (another kind of event, an object not cobro's, one Stripe no longer confirms). */
  | { kind: 'ignored'; why: string };

/** An event the account's Stripe connection signed, read back: its id, mode and notice. */
export interface ReadEvent {
  eventId: string;
  type: string;
  mode: Mode;
  notice: Notice;
}

/** Why an event was not taken at all: its signature verifies under no connected mode of the account. */
export type Refusal = { refused: 'not_connected' | 'bad_signature' };

const attemptOf = (metadata: Stripe.Metadata | null | undefined) => metadata?.cobro_attempt ?? undefined;

const idOf = (value: { id: string } | string | null | undefined): string | undefined =>
  value == null ? undefined : typeof value === 'string' ? value : value.id;

/** The notice an event of a Stripe account asks for, read back from Stripe with `stripe`. */
async function noticeOf(stripe: Stripe, event: Stripe.Event): Promise<Notice> {
  const object = event.data.object as { id?: string; object?: string };
  const id = object.id;
  if (!id) return { kind: 'ignored', why: 'the event names no object' };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed': {
      const session = await stripe.checkout.sessions.retrieve(id);
      const attemptId = session.client_reference_id ?? attemptOf(session.metadata);
      return attemptId
        ? { kind: 'checkout', attemptId }
        : { kind: 'ignored', why: 'not a checkout of cobro' };
    }
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed': {
      const intent = await stripe.paymentIntents.retrieve(id);
      const attemptId = attemptOf(intent.metadata);
      if (!attemptId) return { kind: 'ignored', why: 'not a payment of cobro' };
      const error = event.type === 'payment_intent.payment_failed' ? intent.last_payment_error : null;
      if (!error) return { kind: 'payment', attemptId };
      const { declineReasonOf } = await import('./stripe.ts');
      return { kind: 'payment', attemptId, declineReason: declineReasonOf(error.code, error.decline_code) };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed': {
      const refund = await stripe.refunds.retrieve(id);
      const attemptId = attemptOf(refund.metadata);
      return attemptId ? { kind: 'refund', attemptId } : { kind: 'ignored', why: 'not a refund of cobro' };
    }
    case 'charge.refunded': {
      // The refunds of the charge tell which of cobro's attempts changed; each is finished alone.
      const charge = await stripe.charges.retrieve(id, { expand: ['refunds'] });
      const attemptId = (charge.refunds?.data ?? [])
        .map((refund) => attemptOf(refund.metadata))
        .find(Boolean);
      return attemptId ? { kind: 'refund', attemptId } : { kind: 'ignored', why: 'no refund of cobro' };
    }
    case 'charge.dispute.created': {
      const dispute = await stripe.disputes.retrieve(id);
      const intentId = idOf(dispute.payment_intent);
      const intent = intentId ? await stripe.paymentIntents.retrieve(intentId) : undefined;
      const attemptId = attemptOf(intent?.metadata);
      if (!attemptId) return { kind: 'ignored', why: 'a dispute of a payment not made by cobro' };
      return {
        kind: 'dispute',
        attemptId,
        dispute: {
          id: dispute.id,
          amountMinor: dispute.amount,
          currency: dispute.currency.toUpperCase(),
          reason: dispute.reason,
          status: dispute.status,
          createdAt: new Date(dispute.created * 1000).toISOString(),
        },
      };
    }
    case 'payout.paid': {
      const payout = await stripe.payouts.retrieve(id);
      if (payout.status !== 'paid') return { kind: 'ignored', why: `payout ${id} is ${payout.status}` };
      const { payoutSettlement } = await import('./stripe.ts');
      const settled = (await payoutSettlement(stripe, payout.id)).map(({ attemptId, netMinor }) => ({
        attemptId,
        netMinor,
      }));
      return {
        kind: 'payout',
        payoutId: payout.id,
        paidAt: new Date(payout.arrival_date * 1000).toISOString(),
        settled,
      };
    }
    default:
      return { kind: 'ignored', why: `cobro does not act on ${event.type}` };
  }
}

/**
 * Verifies an event posted for `developerId` against the signing secret of each mode of the account
 * connected to Stripe, then reads it (and what it names) back from Stripe. The Stripe package is
 * loaded only when a mode is connected to Stripe.
 */
export async function readStripeEvent(
  deps: Deps,
  developerId: number,
  payload: string,
  signature: string | undefined,
  now: Date,
): Promise<ReadEvent | Refusal> {
  // Every Stripe account either mode holds the credentials of: the connected one, and those it was
  // connected to before (their events still finish what they hold).
  const accounts = (
    await Promise.all([
      getConnectionRecord(deps, developerId, 'live'),
      getConnectionRecord(deps, developerId, 'test'),
    ])
  ).flatMap((record) =>
    record ? stripeAccountsOf(record).map((stripe) => ({ mode: record.mode, stripe })) : [],
  );
  if (accounts.length === 0) return { refused: 'not_connected' };
  if (!signature) return { refused: 'bad_signature' };
  const { stripeClient } = await import('./stripe.ts');
  const box = connectorSecrets();
  for (const { mode, stripe } of accounts) {
    const secret = await box.open(stripe.webhook_secret);
    const client = stripeClient(await box.open(stripe.secret_key), process.env[envNames.stripeApiUrl]);
    const record = { mode };
    let posted: Stripe.Event;
    try {
      // Stripe's own check: the HMAC of the exact body, and a timestamp within 5 minutes of now.
      posted = client.webhooks.constructEvent(payload, signature, secret, 300, undefined, now.getTime());
    } catch {
      continue;
    }
    // Never the body alone: the event as Stripe has it now, under this connection's key.
    let event: Stripe.Event;
    try {
      event = await client.events.retrieve(posted.id);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404)
        return {
          eventId: posted.id,
          type: posted.type,
          mode: record.mode,
          notice: { kind: 'ignored', why: 'Stripe does not confirm the event' },
        };
      throw error;
    }
    if (event.livemode !== (record.mode === 'live'))
      return {
        eventId: event.id,
        type: event.type,
        mode: record.mode,
        notice: { kind: 'ignored', why: 'the event is of the other mode' },
      };
    let notice: Notice;
    try {
      notice = await noticeOf(client, event);
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404)
        notice = { kind: 'ignored', why: 'Stripe does not confirm the object the event names' };
      else throw error;
    }
    return { eventId: event.id, type: event.type, mode: record.mode, notice };
  }
  return { refused: 'bad_signature' };
}
