/**
 * A payment link (docs/design.md#payment-links): its record, the rules of its status, and its
 * views. Amounts are minor units here; the views turn them into the API's decimal (a string
 * in lists, a number in the single view) at the edge.
 */
import * as v from 'valibot';
import type { SessionRecurrence } from '../checkout/session.ts';
import type { Mode } from '../core/account.ts';
import { formatAmount } from '../core/money/amount.ts';
import { currencyOf } from '../core/money/fields.ts';
import { addMonthsClamped } from '../subscriptions/periods.ts';

/** The statuses a link may hold (the API's allowed list; `cancelled` and `canceled` both). */
export const linkStatuses = [
  'pending',
  'paid',
  'paid_period',
  'pending_period',
  'cancelled',
  'canceled',
  'defaulter',
  'active',
  'inactive',
] as const;
export type LinkStatus = (typeof linkStatuses)[number];

/** The statuses in which a link's page takes a payment (when the link is `active`). */
const payableStatuses: ReadonlySet<LinkStatus> = new Set([
  'pending',
  'pending_period',
  'defaulter',
  'active',
]);

/** Days a `pending_period` link stays unpaid after the date that fell due before it becomes `defaulter`. */
export const defaulterAfterDays = 5;
const day = 86_400_000;

export interface PaymentLink {
  id: string;
  developer_id: number;
  mode: Mode;
  description: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  active: boolean;
  recurring: boolean;
  status: LinkStatus;
  /**
   * The date payment dates count from (ISO; months are added to it, clamped to month ends): the
   * `next_date_of_payment` last written, or the first payment of a recurring link without one.
   */
  date_anchor: string | null;
  /** How many months the next payment date is past `date_anchor` (nextDateOf). */
  months_from_anchor: number;
  /** The date that fell due, while `pending_period` (the 5 days to `defaulter` count from it). */
  period_due_at: string | null;
  /** When the billing step next has work for the link; null when none. */
  due_at: string | null;
  customer_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  product_id: string | null;
  /** The token of the link's checkout page. */
  token: string;
  last_charge_id: string | null;
  paid_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

/** Whether the link's page takes a payment now. */
export const isPayable = (link: Pick<PaymentLink, 'active' | 'status'>) =>
  link.active && payableStatuses.has(link.status);

/** The date `months` months after the anchor (a Jan 31 anchor gives Feb 28, then Mar 31). */
const monthsAfter = (anchor: string, months: number) =>
  addMonthsClamped(new Date(anchor), months).toISOString();

/** The link's `next_date_of_payment` (ISO), or null when it has none. */
export const nextDateOf = (link: Pick<PaymentLink, 'date_anchor' | 'months_from_anchor'>) =>
  link.date_anchor ? monthsAfter(link.date_anchor, link.months_from_anchor) : null;

/** What a link's page says recurs: a recurring link is paid once a month; other links once. */
export const linkRecurrence = (link: Pick<PaymentLink, 'recurring'>): SessionRecurrence | null =>
  link.recurring ? { interval: 'month', interval_count: 1 } : null;

/** When the billing step next has work for a link, or null. */
export function dueAtOf(link: PaymentLink): string | null {
  if (!link.recurring) return null;
  if (link.status === 'paid_period') return nextDateOf(link);
  if (link.status === 'pending_period' && link.period_due_at)
    return new Date(Date.parse(link.period_due_at) + defaulterAfterDays * day).toISOString();
  return null;
}

/** The link with its due time recomputed, its version moved on, stamped `now`. */
export function revised(link: PaymentLink, now: Date): PaymentLink {
  return { ...link, due_at: dueAtOf(link), version: link.version + 1, updated_at: now.toISOString() };
}

/**
 * The link once a payment of it succeeded: `paid`, or `paid_period` for a recurring
 * link, whose next payment date is a month after this payment when it had none.
 */
export function paidLink(link: PaymentLink, chargeId: string, now: Date): PaymentLink {
  const at = now.toISOString();
  if (!link.recurring)
    return revised({ ...link, status: 'paid', last_charge_id: chargeId, paid_at: at }, now);
  const dated = link.date_anchor ? link : { ...link, date_anchor: at, months_from_anchor: 1 };
  return revised(
    { ...dated, status: 'paid_period', period_due_at: null, last_charge_id: chargeId, paid_at: at },
    now,
  );
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) of an ISO instant. */
export const interfaceDate = (iso: string | null) =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : null;

const datePattern = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** The ISO instant of a `YYYY-MM-DD HH:MM:SS` date (UTC), or undefined when it is not one. */
export function parseInterfaceDate(text: string): string | undefined {
  const match = datePattern.exec(text.trim());
  if (!match) return undefined;
  const [year, month, dayOfMonth, hour, minute, second] = match.slice(1).map(Number) as number[];
  const ms = Date.UTC(
    year as number,
    (month as number) - 1,
    dayOfMonth as number,
    hour as number,
    minute as number,
    second as number,
  );
  const date = new Date(ms);
  // 2026-02-30 or 25:00:00 roll over: refuse them rather than guess.
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== (month as number) - 1 ||
    date.getUTCDate() !== dayOfMonth ||
    date.getUTCHours() !== hour ||
    date.getUTCMinutes() !== minute ||
    date.getUTCSeconds() !== second
  )
    return undefined;
  return date.toISOString();
}

/** One payment attempt of a link (its `payment_logs`). */
export interface LinkLog {
  id: string;
  link_id: string;
  status: 'succeeded' | 'failed';
  amount: number;
  currency: string;
  charge_id: string | null;
  customer_id: string | null;
  decline_reason: string | null;
  card_brand: string | null;
  card_last4: string | null;
  created_at: string;
}

export const LinkLogViewSchema = v.strictObject({
  id: v.string(),
  status: v.picklist(['succeeded', 'failed']),
  amount: v.number(),
  currency: v.string(),
  charge_id: v.nullable(v.string()),
  customer: v.nullable(v.string()),
  decline_reason: v.nullable(v.string()),
  card_brand: v.nullable(v.string()),
  card_last4: v.nullable(v.string()),
  created_on: v.string(),
});
export type LinkLogView = v.InferOutput<typeof LinkLogViewSchema>;

const linkFields = {
  id: v.string(),
  description: v.string(),
  currency: v.string(),
  payment_link: v.literal(true),
  active: v.boolean(),
  recurring: v.boolean(),
  next_date_of_payment: v.nullable(v.string()),
  status: v.picklist(linkStatuses),
  test: v.boolean(),
  created_on: v.string(),
  link: v.string(),
  customer: v.nullable(v.string()),
  customer_name: v.nullable(v.string()),
  product: v.nullable(v.string()),
};

/** The list form: `amount` a decimal string. */
export const LinkListItemSchema = v.strictObject({ ...linkFields, amount: v.string() });
export type LinkListItem = v.InferOutput<typeof LinkListItemSchema>;

/** The single view: `amount` a number, with the link's `payment_logs` (newest first). */
export const LinkViewSchema = v.strictObject({
  ...linkFields,
  amount: v.number(),
  payment_logs: v.array(LinkLogViewSchema),
});
export type LinkView = v.InferOutput<typeof LinkViewSchema>;

const decimal = (minor: number, currency: string) => formatAmount(minor, currencyOf({ currency }));

export function linkListItem(link: PaymentLink, pageUrl: string): LinkListItem {
  return {
    id: link.id,
    description: link.description,
    amount: decimal(link.amount, link.currency),
    currency: link.currency,
    payment_link: true,
    active: link.active,
    recurring: link.recurring,
    next_date_of_payment: interfaceDate(nextDateOf(link)),
    status: link.status,
    test: link.mode === 'test',
    created_on: link.created_at,
    link: pageUrl,
    customer: link.customer_id,
    customer_name: link.customer_name,
    product: link.product_id,
  };
}

export const linkLogView = (log: LinkLog): LinkLogView => ({
  id: log.id,
  status: log.status,
  amount: Number(decimal(log.amount, log.currency)),
  currency: log.currency,
  charge_id: log.charge_id,
  customer: log.customer_id,
  decline_reason: log.decline_reason,
  card_brand: log.card_brand,
  card_last4: log.card_last4,
  created_on: log.created_at,
});

export function linkView(link: PaymentLink, pageUrl: string, logs: readonly LinkLog[]): LinkView {
  return {
    ...linkListItem(link, pageUrl),
    amount: Number(decimal(link.amount, link.currency)),
    payment_logs: logs.map(linkLogView),
  };
}
