/**
 * The keys of the simulated acquirer's books (./simulated-books.ts). They stand in for an
 * acquirer's own system, so they share the table but never a partition with cobro's records, and
 * only the simulated acquirer reads them: cobro learns of them through the acquirer port alone,
 * which is what makes reconciliation (docs/design.md#reconciliation) compare two separate sets of books.
 */
import type { Mode } from '../core/account.ts';
import { accountPartition, type ItemKey, type ListKey, shardOf } from '../db/keys.ts';

/** How many gsi1 partitions hold one day of the simulated acquirer's ledger. */
export const simulatedLedgerShards = 8;

/** The gsi1 partition of a day (`yyyy-mm-dd`, UTC) and shard of the ledger. */
const ledgerPartition = (day: string, shard: number) => `SIMACQ#LEDGER#${day}#${shard}`;

export const simulatedKeys = {
  /**
   * What the acquirer did under one idempotency key in one mode: the request's fingerprint and its
   * outcome, or the tombstone of a lookup that found nothing. One namespace for every operation, as
   * a real acquirer's idempotency keys are.
   */
  operation: (mode: Mode, idempotencyKey: string): ItemKey => ({
    pk: `SIMACQ#${mode}#OPERATION#${idempotencyKey}`,
    sk: 'OPERATION',
  }),
  /** An approved charge's balance (its amount, refunded and paid out), by its reference: what refunds and payouts name. */
  charge: (mode: Mode, reference: string): ItemKey => ({
    pk: `SIMACQ#${mode}#CHARGE#${reference}`,
    sk: 'CHARGE',
  }),
  /**
   * Money that moved, in gsi1: one partition per UTC day and shard (spread by key so a busy day has
   * no single hot partition), sorted by time. The ledger reads a range as one Query per day and shard.
   */
  ledger: (at: string, mode: Mode, idempotencyKey: string): ListKey => ({
    gsi1pk: ledgerPartition(at.slice(0, 10), shardOf(idempotencyKey, simulatedLedgerShards)),
    gsi1sk: `${at}#${mode}#${idempotencyKey}`,
  }),
  ledgerPartition,
};

/** The gsi1 partition listing every mode connected to Stripe: what reconciliation walks. */
const stripeConnectionsPartition = 'CONNECTIONS#stripe';

/** The keys of connections (./connection.ts): which connector an account's mode moves money through. */
export const connectionKeys = {
  /** One account's connection in one mode, beside its account record. */
  connection: (developerId: number, mode: Mode): ItemKey => ({
    pk: accountPartition(developerId),
    sk: `CONNECTION#${mode}`,
  }),
  /** Its place in the list of modes connected to Stripe (gsi1; absent for other connectors). */
  stripeListed: (developerId: number, mode: Mode): ListKey => ({
    gsi1pk: stripeConnectionsPartition,
    gsi1sk: `${String(developerId).padStart(12, '0')}#${mode}`,
  }),
  stripeConnectionsPartition,
};
