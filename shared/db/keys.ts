/**
 * Every key of the single table is built here and nowhere else.
 */

import type { Mode } from '../core/account.ts';

export interface ItemKey {
  pk: string;
  sk: string;
}

/** Where an item sits in gsi1, the per-account-and-mode list index. */
export interface ListKey {
  gsi1pk: string;
  gsi1sk: string;
}

/** How many gsi2 partitions hold the charges waiting for payout. */
export const payoutShards = 8;

/** A stable shard of an id: the sum of its character codes, modulo `count`. */
function shardOf(id: string, count: number): number {
  let sum = 0;
  for (const char of id) sum += char.charCodeAt(0);
  return sum % count;
}

/** How many gsi2 partitions hold webhook tasks waiting for a retry (the sweep reads each). */
export const dueShards = 4;

/** How many gsi1 partitions a day's attempts are spread over (reconciliation reads each). */
export const attemptDayShards = 8;

/** Everything an account owns in one mode lives under this prefix. */
const scope = (developerId: number, mode: Mode) => `ACCOUNT#${developerId}#${mode}`;

/** The partition of a search term: its kind and first character. */
const searchPartition = (developerId: number, mode: Mode, kind: string, term: string) =>
  `${scope(developerId, mode)}#SEARCH#${kind}#${Array.from(term)[0] ?? ''}`;
/** Between an entry's text and its record id (texts never hold control characters). */
const searchSeparator = '\u001f';

/** How many gsi1 partitions hold one day of the simulated acquirer's ledger. */
export const simulatedAcquirerLedgerShards = 8;

const simulatedAcquirerLedgerPartition = (day: string, shard: number) => `SIMACQ#LEDGER#${day}#${shard}`;

export const keys = {
  /** The account record: profile and key metadata (hashes, masks, dates). */
  account: (developerId: number): ItemKey => ({ pk: `ACCOUNT#${developerId}`, sk: 'ACCOUNT' }),
  /** Reserves an e-mail for one account (accounts are unique by e-mail). */
  accountEmail: (email: string): ItemKey => ({
    pk: `ACCOUNT_EMAIL#${email.toLowerCase()}`,
    sk: 'ACCOUNT_EMAIL',
  }),
  /** The counter that hands out integer account ids. */
  accountSequence: (): ItemKey => ({ pk: 'SEQUENCE#ACCOUNT', sk: 'SEQUENCE' }),
  /** An API key, found by the SHA-256 of the key itself: the authorizer's single GetItem. */
  apiKey: (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** OAuth client credentials, found by client id. */
  client: (clientId: string): ItemKey => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),

  /** A plan, by its key, in the account and mode that own it: another account's id finds nothing. */
  plan: (developerId: number, mode: Mode, planId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#PLAN#${planId}`,
    sk: 'PLAN',
  }),
  /** A plan's place in its account's list: newest first when read backwards. */
  planInList: (developerId: number, mode: Mode, createdAt: string, planId: string): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#PLANS`,
    gsi1sk: `PLAN#${createdAt}#${planId}`,
  }),
  /**
   * How many plans the account has in a mode. In gsi1 it sorts after every plan (`~` > `#`), so one
   * backwards Query returns the count first and then the newest plans: page 1 in one call.
   */
  planCount: (developerId: number, mode: Mode): ItemKey & ListKey => ({
    pk: `${scope(developerId, mode)}#PLANS`,
    sk: 'COUNT',
    gsi1pk: `${scope(developerId, mode)}#PLANS`,
    gsi1sk: 'PLAN~COUNT',
  }),

  /** A stored Idempotency-Key (D12), scoped to account and mode. */
  idempotency: (developerId: number, mode: Mode, key: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#IDEMPOTENCY#${key}`,
    sk: 'IDEMPOTENCY',
  }),

  /** A payment (`pay_…`) of the account and mode. */
  payment: (developerId: number, mode: Mode, paymentId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#PAYMENT#${paymentId}`,
    sk: 'PAYMENT',
  }),
  /** A hosted checkout session, found by the secret token in its URL (no account known yet). */
  checkout: (token: string): ItemKey => ({ pk: `CHECKOUT#${token}`, sk: 'CHECKOUT' }),

  /** A charge (`ch_…`) and its place in the account's payment list (D9: newest first). */
  charge: (developerId: number, mode: Mode, chargeId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#CHARGE#${chargeId}`,
    sk: 'CHARGE',
  }),
  chargeInList: (developerId: number, mode: Mode, createdAt: string, chargeId: string): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#CHARGES`,
    gsi1sk: `CHARGE#${createdAt}#${chargeId}`,
  }),
  /** gsi1 sort key bound for charges created before a time (`created_before`). */
  chargesBefore: (createdBefore: string) => `CHARGE#${createdBefore}`,
  chargeListPrefix: 'CHARGE#',
  /**
   * A live charge waiting to be paid out, in gsi2 (sparse: the attributes go when it is paid out).
   * Spread over `payoutShards` partitions by charge id so no single partition takes every charge.
   */
  payoutDue: (chargeId: string, dueAt: string): { gsi2pk: string; gsi2sk: string } => ({
    gsi2pk: `PAYOUT_DUE#${shardOf(chargeId, payoutShards)}`,
    gsi2sk: `${dueAt}#${chargeId}`,
  }),
  payoutShard: (shard: number) => `PAYOUT_DUE#${shard}`,

  /** A refund and its places in the account's refund list and in its charge's. */
  refund: (developerId: number, mode: Mode, refundId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#REFUND#${refundId}`,
    sk: 'REFUND',
  }),
  refundInLists: (
    developerId: number,
    mode: Mode,
    chargeId: string,
    createdAt: string,
    refundId: string,
  ): ListKey & { gsi2pk: string; gsi2sk: string } => ({
    gsi1pk: `${scope(developerId, mode)}#REFUNDS`,
    gsi1sk: `REFUND#${createdAt}#${refundId}`,
    gsi2pk: `${scope(developerId, mode)}#CHARGE_REFUNDS#${chargeId}`,
    gsi2sk: `REFUND#${createdAt}#${refundId}`,
  }),
  refundsOfCharge: (developerId: number, mode: Mode, chargeId: string) =>
    `${scope(developerId, mode)}#CHARGE_REFUNDS#${chargeId}`,
  refundList: (developerId: number, mode: Mode) => `${scope(developerId, mode)}#REFUNDS`,

  /** A customer, and the item that keeps its e-mail unique in the account and mode. */
  customer: (developerId: number, mode: Mode, customerId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#CUSTOMER#${customerId}`,
    sk: 'CUSTOMER',
  }),
  customerInList: (developerId: number, mode: Mode, createdAt: string, customerId: string): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#CUSTOMERS`,
    gsi1sk: `CUSTOMER#${createdAt}#${customerId}`,
  }),
  /** How many customers the account has in a mode; sorts after them in gsi1 (as planCount). */
  customerCount: (developerId: number, mode: Mode): ItemKey & ListKey => ({
    pk: `${scope(developerId, mode)}#CUSTOMERS`,
    sk: 'COUNT',
    gsi1pk: `${scope(developerId, mode)}#CUSTOMERS`,
    gsi1sk: 'CUSTOMER~COUNT',
  }),
  /** A customer's address, in the customer's own partition (one Query reads both). */
  customerAddress: (developerId: number, mode: Mode, customerId: string, addressId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#CUSTOMER#${customerId}`,
    sk: `ADDRESS#${addressId}`,
  }),
  customerAddressPrefix: 'ADDRESS#',
  customerEmail: (developerId: number, mode: Mode, email: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#CUSTOMER_EMAIL#${email.toLowerCase()}`,
    sk: 'CUSTOMER_EMAIL',
  }),

  /**
   * One entry of a substring index (shared/db/search.ts): a suffix of a record's searchable text,
   * in the partition of its first character.
   */
  searchPartition,
  searchEntry: (developerId: number, mode: Mode, kind: string, term: string, recordId: string): ItemKey => ({
    pk: searchPartition(developerId, mode, kind, term),
    sk: `${term}${searchSeparator}${recordId}`,
  }),
  searchSeparator,

  /** A tax of the account (integer id) and the counter that hands its ids out. */
  tax: (developerId: number, mode: Mode, taxId: number): ItemKey => ({
    pk: `${scope(developerId, mode)}#TAX#${taxId}`,
    sk: 'TAX',
  }),
  taxInList: (developerId: number, mode: Mode, createdAt: string, taxId: number): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#TAXES`,
    gsi1sk: `TAX#${createdAt}#${taxId}`,
  }),
  taxList: (developerId: number, mode: Mode) => `${scope(developerId, mode)}#TAXES`,
  taxSequence: (developerId: number): ItemKey => ({ pk: `ACCOUNT#${developerId}`, sk: 'SEQUENCE#TAX' }),

  /** A product; it stays stored, deactivated, after DELETE (payment links may name it). */
  product: (developerId: number, mode: Mode, productId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#PRODUCT#${productId}`,
    sk: 'PRODUCT',
  }),
  productInList: (developerId: number, mode: Mode, createdAt: string, productId: string): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#PRODUCTS`,
    gsi1sk: `PRODUCT#${createdAt}#${productId}`,
  }),
  productCount: (developerId: number, mode: Mode): ItemKey & ListKey => ({
    pk: `${scope(developerId, mode)}#PRODUCTS`,
    sk: 'COUNT',
    gsi1pk: `${scope(developerId, mode)}#PRODUCTS`,
    gsi1sk: 'PRODUCT~COUNT',
  }),

  /** A domain event, by id, and its place in the account's event list. */
  event: (eventId: string): ItemKey => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' }),
  eventInList: (developerId: number, mode: Mode, createdAt: string, eventId: string): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#EVENTS`,
    gsi1sk: `EVENT#${createdAt}#${eventId}`,
  }),
  /** An event's place in the list of its type (`GET /v1/events/?type=`), in gsi2. */
  eventOfType: (developerId: number, mode: Mode, type: string, createdAt: string, eventId: string) => ({
    gsi2pk: `${scope(developerId, mode)}#EVENTS#${type}`,
    gsi2sk: `EVENT#${createdAt}#${eventId}`,
  }),
  eventListPrefix: 'EVENT#',

  /** A subscription (`sub_…`) of the account and mode. */
  subscription: (developerId: number, mode: Mode, subscriptionId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#SUBSCRIPTION#${subscriptionId}`,
    sk: 'SUBSCRIPTION',
  }),
  /** A subscription's place in its account's list (gsi1) and in its plan's (gsi2), newest first. */
  subscriptionInList: (
    developerId: number,
    mode: Mode,
    createdAt: string,
    subscriptionId: string,
  ): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#SUBSCRIPTIONS`,
    gsi1sk: `SUBSCRIPTION#${createdAt}#${subscriptionId}`,
  }),
  subscriptionOfPlan: (
    developerId: number,
    mode: Mode,
    planId: string,
    createdAt: string,
    subscriptionId: string,
  ) => ({
    gsi2pk: `${scope(developerId, mode)}#PLAN#${planId}#SUBSCRIPTIONS`,
    gsi2sk: `SUBSCRIPTION#${createdAt}#${subscriptionId}`,
  }),
  /**
   * When the billing step next has work for a subscription (a renewal, a trial's end, a retry):
   * one item in one of `dueShards` partitions, sorted by time, written with every change of it.
   */
  billingDue: (subscriptionId: string, dueAt: string): ItemKey => ({
    pk: `DUE#BILLING#${shardOf(subscriptionId, dueShards)}`,
    sk: `${dueAt}#${subscriptionId}`,
  }),
  billingDuePartition: (shard: number) => `DUE#BILLING#${shard}`,

  /** A payment link; its payment log entries share its partition (one Query reads both). */
  paymentLink: (developerId: number, mode: Mode, linkId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#LINK#${linkId}`,
    sk: 'LINK',
  }),
  paymentLinkLog: (developerId: number, mode: Mode, linkId: string, at: string, logId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#LINK#${linkId}`,
    sk: `LOG#${at}#${logId}`,
  }),
  paymentLinkInList: (developerId: number, mode: Mode, createdAt: string, linkId: string): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#LINKS`,
    gsi1sk: `LINK#${createdAt}#${linkId}`,
  }),
  /** How many payment links the account has in a mode; sorts after them in gsi1 (as planCount). */
  paymentLinkCount: (developerId: number, mode: Mode): ItemKey & ListKey => ({
    pk: `${scope(developerId, mode)}#LINKS`,
    sk: 'COUNT',
    gsi1pk: `${scope(developerId, mode)}#LINKS`,
    gsi1sk: 'LINK~COUNT',
  }),
  /** A recurring payment link's next step (D14), by due time, spread over `dueShards` partitions. */
  linkDue: (linkId: string, dueAt: string): ItemKey => ({
    pk: `DUE#LINK#${shardOf(linkId, dueShards)}`,
    sk: `${dueAt}#${linkId}`,
  }),
  linkDuePartition: (shard: number) => `DUE#LINK#${shard}`,

  /**
   * A webhook endpoint (`we_…`). Its partition also holds its delivery tasks (one per event and
   * round of sending), so an endpoint and its work are read together.
   */
  webhookEndpoint: (developerId: number, mode: Mode, endpointId: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINT#${endpointId}`,
    sk: 'WEBHOOK_ENDPOINT',
  }),
  webhookEndpointInList: (
    developerId: number,
    mode: Mode,
    createdAt: string,
    endpointId: string,
  ): ListKey => ({
    gsi1pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINTS`,
    gsi1sk: `WEBHOOK_ENDPOINT#${createdAt}#${endpointId}`,
  }),
  /** How many endpoints the account has in a mode; sorts after them in gsi1 (as planCount). */
  webhookEndpointCount: (developerId: number, mode: Mode): ItemKey & ListKey => ({
    pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINTS`,
    sk: 'COUNT',
    gsi1pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINTS`,
    gsi1sk: 'WEBHOOK_ENDPOINT~COUNT',
  }),
  /** Sending one event to one endpoint (`round` 0 first, a new one per redelivery). */
  webhookTask: (
    developerId: number,
    mode: Mode,
    endpointId: string,
    eventId: string,
    round: string,
  ): ItemKey => ({
    pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINT#${endpointId}`,
    sk: `TASK#${eventId}#${round}`,
  }),
  /** A task waiting for its next attempt, in one of `dueShards` gsi2 partitions, by due time. */
  webhookTaskDue: (taskId: string, dueAt: string) => ({
    gsi2pk: `DUE#WEBHOOK#${shardOf(taskId, dueShards)}`,
    gsi2sk: `${dueAt}#${taskId}`,
  }),
  webhookDuePartition: (shard: number) => `DUE#WEBHOOK#${shard}`,
  /** One attempt of a task, listed under its endpoint (`GET …/deliveries/`), newest first. */
  webhookDeliveryInList: (
    developerId: number,
    mode: Mode,
    endpointId: string,
    createdAt: string,
    deliveryId: string,
  ) => ({
    pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINT#${endpointId}`,
    sk: `DELIVERY#${createdAt}#${deliveryId}`,
    gsi1pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINT#${endpointId}#DELIVERIES`,
    gsi1sk: `DELIVERY#${createdAt}#${deliveryId}`,
  }),
  webhookDeliveryCount: (developerId: number, mode: Mode, endpointId: string): ItemKey & ListKey => ({
    pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINT#${endpointId}`,
    sk: 'DELIVERY~COUNT',
    gsi1pk: `${scope(developerId, mode)}#WEBHOOK_ENDPOINT#${endpointId}#DELIVERIES`,
    gsi1sk: 'DELIVERY~COUNT',
  }),
  /**
   * How many times events were sent again in the current hour (a window counter, db/window.ts): of
   * one event, or, without one, of the account and mode as a whole.
   */
  redeliveryCounter: (developerId: number, mode: Mode, eventId?: string): ItemKey => ({
    pk: `${scope(developerId, mode)}#REDELIVERIES`,
    sk: eventId === undefined ? 'ACCOUNT' : `EVENT#${eventId}`,
  }),
  /** A task that ran out of retries, listed per day for the operator (`webhooks dead-letters`). */
  webhookDeadLetter: (failedAt: string, taskId: string): ItemKey => ({
    pk: `WEBHOOK_DEAD_LETTERS#${failedAt.slice(0, 10)}`,
    sk: `${failedAt}#${taskId}`,
  }),

  /*
   * The simulated acquirer's books (shared/acquirer/simulated-books.ts). They stand in for an
   * acquirer's own system, so they share the table but never a partition with cobro's records, and
   * only the simulated acquirer reads them: cobro learns of them through the acquirer port alone,
   * which is what makes reconciliation (D15) compare two separate sets of books.
   */
  /**
   * What the acquirer did under one idempotency key in one mode: the request's fingerprint and its
   * outcome, or the tombstone of a lookup that found nothing. One namespace for every operation, as
   * a real acquirer's idempotency keys are.
   */
  simulatedAcquirerOperation: (mode: Mode, idempotencyKey: string): ItemKey => ({
    pk: `SIMACQ#${mode}#OPERATION#${idempotencyKey}`,
    sk: 'OPERATION',
  }),
  /** An approved charge's balance (its amount, refunded and paid out), by its reference: what refunds and payouts name. */
  simulatedAcquirerCharge: (mode: Mode, reference: string): ItemKey => ({
    pk: `SIMACQ#${mode}#CHARGE#${reference}`,
    sk: 'CHARGE',
  }),
  /**
   * Money that moved, in gsi1: one partition per UTC day and shard (spread by key so a busy day has
   * no single hot partition), sorted by time. The ledger reads a range as one Query per day and shard.
   */
  simulatedAcquirerLedger: (at: string, mode: Mode, idempotencyKey: string): ListKey => ({
    gsi1pk: simulatedAcquirerLedgerPartition(
      at.slice(0, 10),
      shardOf(idempotencyKey, simulatedAcquirerLedgerShards),
    ),
    gsi1sk: `${at}#${mode}#${idempotencyKey}`,
  }),
  /** The gsi1 partition of a day (`yyyy-mm-dd`, UTC) and shard of the simulated acquirer's ledger. */
  simulatedAcquirerLedgerPartition,

  /**
   * A money movement's attempt (D15), by id: stored before the acquirer is called. While it is
   * not final it sits in gsi2's sparse recovery index, in one of `dueShards` partitions by the
   * time recovery may take it; every attempt is also listed by the day it was made (gsi1, 8
   * partitions a day), which reconciliation reads.
   */
  attempt: (attemptId: string): ItemKey => ({ pk: `ATTEMPT#${attemptId}`, sk: 'ATTEMPT' }),
  attemptRecovery: (attemptId: string, recoverAt: string) => ({
    gsi2pk: `DUE#ATTEMPT#${shardOf(attemptId, dueShards)}`,
    gsi2sk: `${recoverAt}#${attemptId}`,
  }),
  attemptRecoveryPartition: (shard: number) => `DUE#ATTEMPT#${shard}`,
  attemptOfDay: (attemptId: string, createdAt: string): ListKey => ({
    gsi1pk: `ATTEMPTS#${createdAt.slice(0, 10)}#${shardOf(attemptId, attemptDayShards)}`,
    gsi1sk: `${createdAt}#${attemptId}`,
  }),
  attemptDayPartition: (day: string, shard: number) => `ATTEMPTS#${day}#${shard}`,

  /** That an event's e-mail went to one recipient (the SHA-256 of the address): sent once (D13). */
  mailSent: (eventId: string, recipientHash: string): ItemKey => ({
    pk: `MAIL_SENT#${eventId}#${recipientHash}`,
    sk: 'MAIL_SENT',
  }),
};
