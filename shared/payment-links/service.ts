/**
 * The payment links API (docs/design.md#payment-links): creation (one link, or one per
 * customer, customers found or created by e-mail), the list, the single view with its payment log,
 * updates (never of a paid link) and deletion. Each link's page is a hosted checkout session.
 */
import { randomUUID } from 'node:crypto';
import { merchantName, statementDescriptor } from '../accounts/account.ts';
import { getAccount } from '../accounts/repository.ts';
import { refuseUnconnected } from '../acquirer/connection.ts';
import { linkPageWrite, sessionEntity } from '../checkout/repository.ts';
import { newLinkSession, pageUrl } from '../checkout/session.ts';
import { assertModeFlags, type Scope } from '../core/account.ts';
import { Conflict, Invalid, NotFound, RuleBroken } from '../core/errors.ts';
import { uuidParam } from '../core/ids.ts';
import { findCurrency } from '../core/money/currencies.ts';
import { amountField, assertMinimum } from '../core/money/fields.ts';
import type { LinkedPage, PageRequest } from '../core/pagination.ts';
import { linkedPage } from '../core/pagination.ts';
import * as rules from '../core/rules.ts';
import { InvalidInput, isEmail, validate } from '../core/validation.ts';
import type { Customer } from '../customers/customer.ts';
import { findCustomer, findOrCreateCustomer } from '../customers/repository.ts';
import type { Deps } from '../db/deps.ts';
import { lostRace, retryOptimistic } from '../db/optimistic.ts';
import type { Product } from '../products/product.ts';
import { getProductForLink } from '../products/repository.ts';
import {
  isPayable,
  type LinkListItem,
  type LinkStatus,
  type LinkView,
  linkListItem,
  linkRecurrence,
  linkStatuses,
  linkView,
  type PaymentLink,
  parseInterfaceDate,
  revised,
} from './link.ts';
import { paymentLinkMessages } from './messages.ts';
import {
  getLink,
  getLinkWithLogs,
  listLinks,
  PageBusy,
  removeLink,
  saveLink,
  storeLinks,
} from './repository.ts';
import {
  type CreatePaymentLinkInput,
  CreatePaymentLinkSchema,
  type CustomerRef,
  type UpdatePaymentLinkInput,
  UpdatePaymentLinkSchema,
} from './schemas.ts';

type LinkDeps = Deps & { baseUrl: string };

const absent = () => new NotFound(paymentLinkMessages.payment_link_not_found);

/** The `{id}` of a payment link path: a UUID; anything else names no link (404). */
export const linkIdParam = (value: string | undefined): string => uuidParam(value, absent);
const blank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const filled = (value: string | null | undefined): value is string => !blank(value);

/**
 * The creation body, checked in this order: a missing description is 406 "Missing
 * Data", a missing amount 400, then the fields' shapes, the amount's precision and the USD 1.00
 * minimum.
 */
export function creationInput(body: unknown): { input: CreatePaymentLinkInput; amount: number } {
  const raw = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (blank(raw.description)) throw new RuleBroken(paymentLinkMessages.payment_link_description_missing);
  if (blank(raw.amount)) throw new Invalid(paymentLinkMessages.payment_link_amount_missing);
  const input = validate(CreatePaymentLinkSchema, body);
  const currency = findCurrency(input.currency);
  if (!currency) throw new Error(`validated currency ${input.currency} is unknown`);
  const amount = amountField(input.amount, currency);
  assertMinimum(amount, currency);
  return { input, amount };
}

interface LinkCustomer {
  id: string;
  name: string;
  email: string;
}

const fullName = (customer: { first_name: string; last_name: string }) =>
  `${customer.first_name} ${customer.last_name}`.trim();

/** Every customer of the body, in its order: found by id, or found or created by e-mail. */
async function resolveCustomers(deps: Deps, scope: Scope, refs: CustomerRef[]): Promise<LinkCustomer[]> {
  // Every entry is checked against the creation rules before anything is read or written.
  type Wanted = { id: string } | { id?: undefined; first_name: string; last_name: string; email: string };
  const wanted = refs.map((ref, index): Wanted => {
    if (typeof ref === 'string') return { id: ref.toLowerCase() };
    const id = ref.id ?? ref.customer;
    if (id) return { id: id.toLowerCase() };
    const { first_name, last_name, email } = ref;
    if (!filled(first_name) || !filled(last_name) || !filled(email))
      throw new Invalid(paymentLinkMessages.payment_link_customer_incomplete);
    if (!isEmail(email)) throw new InvalidInput([{ field: `customers[${index}].email`, rule: rules.email }]);
    return { first_name, last_name, email };
  });
  // Every id is checked before any customer is created: a body naming an absent one changes nothing.
  const byId = await Promise.all(
    wanted.map((want) => (want.id === undefined ? undefined : findCustomer(deps, scope, want.id))),
  );
  wanted.forEach((want, index) => {
    if (want.id !== undefined && !byId[index])
      throw new Invalid(paymentLinkMessages.payment_link_customer_absent, { params: { customer: want.id } });
  });
  const customers = await Promise.all(
    wanted.map(
      (want, index) =>
        byId[index] ??
        findOrCreateCustomer(deps, scope, { ...(want as Exclude<Wanted, { id: string }>), country: null }),
    ),
  );
  return customers.map((customer) => ({ id: customer.id, name: fullName(customer), email: customer.email }));
}

export type CreatedLinks =
  | { id: string; link: string }
  | { id: string; customer: string; customer_name: string; link: string }[];

/** POST /v1/payment-links/: one link, or one per customer, each with its page, all pending. */
export async function createLinks(deps: LinkDeps, scope: Scope, body: unknown): Promise<CreatedLinks> {
  const { input, amount } = creationInput(body);
  assertModeFlags(input, scope.mode);
  const [owner, customers] = await Promise.all([
    getAccount(deps, scope.developerId),
    resolveCustomers(deps, scope, input.customers),
    refuseUnconnected(deps, scope),
  ]);
  const now = deps.clock();
  const at = now.toISOString();
  const merchant = { name: merchantName(owner), statementDescriptor: statementDescriptor(owner) };
  const made = (customers.length ? customers : [undefined]).map((customer) => {
    const id = randomUUID();
    const session = newLinkSession(
      {
        id,
        developer_id: scope.developerId,
        mode: scope.mode,
        amount,
        currency: input.currency,
        description: input.description,
      },
      merchant,
      customer?.email ?? null,
      now,
    );
    const link: PaymentLink = {
      id,
      developer_id: scope.developerId,
      mode: scope.mode,
      description: input.description,
      amount,
      currency: input.currency,
      active: true,
      recurring: false,
      status: 'pending',
      date_anchor: null,
      months_from_anchor: 0,
      period_due_at: null,
      due_at: null,
      customer_id: customer?.id ?? null,
      customer_name: customer?.name ?? null,
      customer_email: customer?.email ?? null,
      product_id: null,
      token: session.token,
      last_charge_id: null,
      paid_at: null,
      version: 1,
      created_at: at,
      updated_at: at,
    };
    return { link, session, customer };
  });
  await storeLinks(
    deps,
    scope,
    made.map((one) => one.link),
    made.map((one) => sessionEntity.create(deps.table, one.session)),
  );
  const urlOf = (token: string) => pageUrl(deps.baseUrl, token);
  if (customers.length === 0) {
    const [only] = made;
    if (!only) throw new Error('no link made');
    return { id: only.link.id, link: urlOf(only.link.token) };
  }
  return made.map(({ link, customer }) => ({
    id: link.id,
    customer: customer?.id ?? '',
    customer_name: customer?.name ?? '',
    link: urlOf(link.token),
  }));
}

/** Envelope B of the account's links, newest first (amounts as strings). */
export async function linkList(
  deps: LinkDeps,
  scope: Scope,
  page: PageRequest,
): Promise<LinkedPage<LinkListItem>> {
  const { count, records } = await listLinks(deps, scope, page);
  const link = (n: number) => {
    const params = new URLSearchParams({ page: String(n), page_size: String(page.pageSize) });
    return `${deps.baseUrl}/v1/payment-links/?${params}`;
  };
  return linkedPage(
    count,
    page,
    records.map((one) => linkListItem(one, pageUrl(deps.baseUrl, one.token))),
    link,
  );
}

/** The single view with the payment log, or 404. */
export async function linkOf(deps: LinkDeps, scope: Scope, id: string): Promise<LinkView> {
  const found = await getLinkWithLogs(deps, scope, id.toLowerCase());
  if (!found) throw absent();
  return linkView(found.link, pageUrl(deps.baseUrl, found.link.token), found.logs);
}

/** The link after an update's fields (checked; the ids they name must exist in the account). */
function updated(
  before: PaymentLink,
  input: UpdatePaymentLinkInput,
  named: { product: Product | undefined; customer: Customer | undefined },
  now: Date,
): PaymentLink {
  const { product, customer } = named;
  const after: PaymentLink = { ...before };
  if (input.status !== undefined) {
    const status = input.status.trim().toLowerCase();
    if (!(linkStatuses as readonly string[]).includes(status))
      throw new Invalid(paymentLinkMessages.payment_link_status_invalid, {
        params: { allowed: linkStatuses.join(', ') },
      });
    after.status = status as LinkStatus;
    // A period that falls due by its owner's word counts its 5 days to `defaulter` from now.
    after.period_due_at =
      after.status === 'pending_period' ? (before.period_due_at ?? now.toISOString()) : null;
  }
  if (input.next_date_of_payment !== undefined) {
    const date = input.next_date_of_payment === null ? null : parseInterfaceDate(input.next_date_of_payment);
    if (date === undefined) throw new Invalid(paymentLinkMessages.payment_link_date_format);
    after.date_anchor = date;
    after.months_from_anchor = 0;
  }
  if (input.active !== undefined) after.active = input.active;
  if (input.recurring !== undefined) after.recurring = input.recurring;
  if (input.product !== undefined) {
    if (input.product !== null && !product)
      throw new Invalid(paymentLinkMessages.payment_link_product_absent);
    after.product_id = product?.id ?? null;
  }
  if (input.customer !== undefined) {
    if (input.customer !== null && !customer)
      throw new Invalid(paymentLinkMessages.payment_link_customer_absent, {
        params: { customer: input.customer },
      });
    after.customer_id = customer?.id ?? null;
    after.customer_name = customer ? fullName(customer) : null;
    after.customer_email = customer?.email ?? null;
  }
  return revised(after, now);
}

/**
 * PUT /v1/payment-links/{id}/: any of its fields; a paid link is 406, a status outside the
 * allowed list 400, a date not `YYYY-MM-DD HH:MM:SS` 400. The page follows: it closes when the
 * link stops taking payments and reopens (no declines) when it starts again or its status is set.
 */
export async function updateLink(
  deps: LinkDeps,
  scope: Scope,
  id: string,
  body: unknown,
): Promise<LinkListItem> {
  // No body changes nothing, as an empty object does (validate reads it so, on every update);
  // JSON null is a body that is not an object: 400.
  const input = validate(UpdatePaymentLinkSchema, body);
  assertModeFlags(input, scope.mode);
  // The product and customer named are read with the link, in one round trip.
  const named = Promise.all([
    input.product ? getProductForLink(deps, scope, input.product.toLowerCase()) : undefined,
    input.customer ? findCustomer(deps, scope, input.customer.toLowerCase()) : undefined,
  ]);
  return retryOptimistic(async () => {
    const [before, [product, customer]] = await Promise.all([getLink(deps, scope, id.toLowerCase()), named]);
    if (!before) throw absent();
    if (before.status === 'paid') throw new RuleBroken(paymentLinkMessages.payment_link_paid);
    const now = deps.clock();
    const after = updated(before, input, { product, customer }, now);
    const change = isPayable(after)
      ? !isPayable(before) || input.status !== undefined
        ? 'reopen'
        : 'keep'
      : isPayable(before)
        ? 'close'
        : 'keep';
    try {
      const saved = await saveLink(
        deps,
        before,
        after,
        linkPageWrite(deps.table, after.token, now, change, after.customer_email, linkRecurrence(after)),
      );
      return saved ? linkListItem(after, pageUrl(deps.baseUrl, after.token)) : lostRace;
    } catch (error) {
      if (error instanceof PageBusy) throw new Conflict(paymentLinkMessages.payment_link_busy);
      throw error;
    }
  });
}

/**
 * DELETE /v1/payment-links/{id}/: the link and its page go (its charges stay). It answers even while
 * a payment of its page is under way: that payment, if approved, is recorded and refunded.
 */
export function deleteLink(deps: Deps, scope: Scope, id: string): Promise<void> {
  return retryOptimistic(async () => {
    const link = await getLink(deps, scope, id.toLowerCase());
    if (!link) throw absent();
    return (await removeLink(deps, scope, link, deps.clock())) ? undefined : lostRace;
  });
}
