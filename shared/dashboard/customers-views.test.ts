import { describe, expect, it } from 'vitest';
import { cellUnder, expectLabelledTables } from '../../test/support/records-table.ts';
import type { Charge } from '../charges/charge.ts';
import type { Lang } from '../core/messages.ts';
import type { Customer } from '../customers/customer.ts';
import { type Subscription, subscriptionView } from '../subscriptions/subscription.ts';
import { customerPage, customersPage, portalLinkPage, problemPage } from './customers-views.ts';
import { customerWords } from './customers-words.ts';
import type { ShellContext } from './shell.ts';
import { confirmCancelPage, subscriptionPage, subscriptionsPage } from './subscriptions-views.ts';

const hostile = `<script>alert("x")</script>'&`;
const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;';
const csrf = 'C'.repeat(32);
const langs: Lang[] = ['en', 'es'];

const view = (lang: Lang = 'en', overrides: Partial<ShellContext> = {}): ShellContext => ({
  lang,
  root: 'https://pay.example.com/dashboard',
  role: 'admin',
  email: 'ada@example.com',
  twoFactor: false,
  merchant: 'Shop',
  mode: 'test',
  csrf,
  here: 'customers',
  section: 'customers',
  ...overrides,
});

const customer: Customer = {
  id: '11111111-2222-4333-8444-555555555555',
  developer_id: 1,
  mode: 'test',
  first_name: hostile,
  last_name: 'Tester',
  email: `a${hostile}@example.com`,
  phone: hostile,
  country: 'ES',
  metadata: null,
  created_at: '2026-10-26T10:00:00.000Z',
  updated_at: '2026-10-26T10:00:00.000Z',
};

const subscription = (overrides: Partial<Subscription> = {}): Subscription => ({
  id: 'sub_AAAAAAAAAAAAAAAAAAAAAAAA',
  developer_id: 1,
  mode: 'test',
  plan_id: '99999999-2222-4333-8444-555555555555',
  plan: { name: hostile, amount: 1050, currency: 'USD', interval: 'month', interval_count: 1 },
  quantity: 2,
  customer_id: customer.id,
  status: 'active',
  active: true,
  statement_descriptor: 'X',
  card_token: 'tok',
  card: { brand: hostile, last4: '4242' },
  anchor: '2026-10-26T10:00:00.000Z',
  trial_end: null,
  started_at: '2026-10-26T10:00:00.000Z',
  paid_through: 0,
  failed_attempts: 0,
  failed_at: null,
  next_action_at: '2026-11-26T10:00:00.000Z',
  version: 2,
  created_at: '2026-10-26T10:00:00.000Z',
  updated_at: '2026-10-26T10:00:00.000Z',
  canceled_at: null,
  ...overrides,
});

const charge = {
  id: 'ch_AAAAAAAAAAAAAAAAAAAAAAAA',
  customer_id: customer.id,
  amount: 2100,
  refunded: 0,
  currency: 'USD',
  description: hostile,
  card: { brand: hostile, last4: '4242' },
  created_at: '2026-10-26T10:00:00.000Z',
} as unknown as Charge;

const nextBilling = (s: Subscription) => subscriptionView(s).next_billing_date;

/** Set to end at its period's end (26 Nov 2026). */
const ending = subscription({ cancel_at_period_end: true });

/** A lower plan pending for the renewal at the period's end. */
const withPending = subscription({
  pending_change: {
    plan_id: '77777777-2222-4333-8444-555555555555',
    plan: { name: 'Bronze', amount: 500, currency: 'USD', interval: 'month', interval_count: 1 },
    quantity: 3,
    effective_at: '2026-11-26T10:00:00.000Z',
  },
});

function expectEscaped(html: string): void {
  expect(html).not.toContain('<script>');
  expect(html).not.toContain('"x")');
  expect(html).toContain(escaped);
}

/** Every POST form of a page carries the session's CSRF token (GET forms change nothing). */
function expectTokenInEveryPostForm(html: string): void {
  const forms = html.match(/<form method="post"[^>]*>/g) ?? [];
  const tokens = html.match(new RegExp(`<input type="hidden" name="csrf_token" value="${csrf}">`, 'g')) ?? [];
  expect(tokens.length).toBe(forms.length);
}

describe('the customers pages', () => {
  it.each(langs)('escape every value and post every form with the CSRF token (%s)', (lang) => {
    const pages = [
      customersPage(
        view(lang),
        { count: 1, customers: [customer] },
        { search: hostile, page: { page: 1, pageSize: 10 }, searchView: false },
        hostile,
      ),
      customerPage(
        view(lang),
        customer,
        { records: [subscription()], more: false, page: 1 },
        { records: [charge], more: false, page: 1 },
        nextBilling,
        'K'.repeat(32),
      ),
      portalLinkPage(view(lang), customer, {
        url: `https://pay.example.com/portal/${'T'.repeat(43)}`,
        expires_at: '2026-10-26T11:00:00.000Z',
      }),
    ];
    for (const page of pages) {
      expectEscaped(page.html);
      expectTokenInEveryPostForm(page.html);
      expect(page.html).toContain(`<html lang="${lang}">`);
    }
  });

  it('the customer page links each charge and subscription, and its portal form carries its key', () => {
    const { html } = customerPage(
      view(),
      customer,
      { records: [subscription()], more: true, page: 2 },
      { records: [charge], more: false, page: 1 },
      nextBilling,
      'K'.repeat(32),
    );
    expect(html).toContain('href="https://pay.example.com/dashboard/charges/ch_AAAAAAAAAAAAAAAAAAAAAAAA"');
    expect(html).toContain(
      'href="https://pay.example.com/dashboard/subscriptions/sub_AAAAAAAAAAAAAAAAAAAAAAAA"',
    );
    expect(html).toContain(`<input type="hidden" name="idempotency_key" value="${'K'.repeat(32)}">`);
    expect(html).toContain(`action="https://pay.example.com/dashboard/customers/${customer.id}/portal"`);
    expect(html).toContain('10.50 USD × 2 = 21.00 USD / month');
    // Each list pages on its own, keeping the other's page.
    expect(html).toContain('?subscriptions_page=1&amp;charges_page=1" rel="prev">Newer');
    expect(html).toContain('?subscriptions_page=3&amp;charges_page=1" rel="next">Older');
  });

  it("the list's page links keep the search and the page size", () => {
    const { html } = customersPage(
      view(),
      { count: 25, customers: [customer] },
      { search: 'ada', page: { page: 2, pageSize: 10 }, searchView: false },
      'ada',
    );
    expect(html).toContain('Page 2 of 3');
    expect(html).toContain('/customers?page=1&amp;page_size=10&amp;search=ada" rel="prev"');
    expect(html).toContain('/customers?page=3&amp;page_size=10&amp;search=ada" rel="next"');
    expect(html).toContain('value="ada"');
  });

  it('offers the portal section only to a role that may make a portal link: an admin or support', () => {
    for (const role of ['admin', 'developer', 'support', 'viewer'] as const) {
      const { html } = customerPage(
        view('en', { role }),
        customer,
        { records: [subscription()], more: false, page: 1 },
        { records: [charge], more: false, page: 1 },
        nextBilling,
        'K'.repeat(32),
      );
      const makes = role === 'admin' || role === 'support';
      expect(html.includes(`/customers/${customer.id}/portal"`), role).toBe(makes);
      expect(html.includes(customerWords.en.portalIntro), role).toBe(makes);
      // Every role reads the customer's subscriptions and charges.
      expect(html).toContain('href="https://pay.example.com/dashboard/charges/ch_AAAAAAAAAAAAAAAAAAAAAAAA"');
    }
  });

  it('the portal link is a read-only field, with when it stops opening', () => {
    const url = `https://pay.example.com/portal/${'T'.repeat(43)}`;
    const { html } = portalLinkPage(view('es'), customer, { url, expires_at: '2026-10-26T11:00:00.000Z' });
    expect(html).toContain(`<input id="portal_url" type="url" readonly value="${url}"`);
    expect(html).toContain('<time datetime="2026-10-26T11:00:00.000Z">');
    expect(html).toContain('Enlace al portal');
  });

  it('a problem page has the status it is given and a way back', () => {
    const page = problemPage(view(), { status: 404, message: hostile }, { url: '/back', label: 'Back' });
    expect(page.status).toBe(404);
    expectEscaped(page.html);
    expect(page.html).toContain('href="/back"');
  });
});

describe('the subscriptions pages', () => {
  it.each(langs)('escape every value and post every form with the CSRF token (%s)', (lang) => {
    const pages = [
      subscriptionsPage(
        view(lang),
        { count: 1, current_page: 1, total_pages: 1, results: [subscription()] },
        { status: 'active', planId: hostile },
        nextBilling,
      ),
      subscriptionPage(view(lang), subscription(), subscriptionView(subscription())),
      subscriptionPage(view(lang), subscription(), subscriptionView(subscription()), {
        kind: 'problem',
        problem: { status: 409, message: hostile },
      }),
      confirmCancelPage(view(lang), subscription()),
      subscriptionPage(view(lang), ending, subscriptionView(ending), { kind: 'ending' }),
      subscriptionPage(view(lang), withPending, subscriptionView(withPending), undefined, {
        pendingPlan: { name: hostile },
      }),
    ];
    for (const page of pages) {
      expectEscaped(page.html);
      expectTokenInEveryPostForm(page.html);
    }
  });

  it("active: the end at the period's end is a form beside cancelling now, stated as such", () => {
    const { html } = subscriptionPage(view(), subscription(), subscriptionView(subscription()));
    const base = 'https://pay.example.com/dashboard/subscriptions/sub_AAAAAAAAAAAAAAAAAAAAAAAA';
    expect(html).toContain(
      `<form method="post" action="${base}/cancel-at-period-end"><input type="hidden" name="csrf_token" value="${csrf}"><button type="submit">Cancel at end of period</button></form>`,
    );
    expect(html).toContain('it stays active until 26 Nov 2026, the end of the period already paid for');
    expect(html).toContain('<p>Cancel now: it ends at once and is never charged again');
    expect(html.indexOf('Cancel at end of period')).toBeLessThan(html.indexOf('Cancel now…'));
    expect(html).not.toContain('/resume"');
    expect(html).toContain('<dt>Next billing date</dt>');
  });

  it('offers cancelling, ending and resuming only to a role that may cancel: an admin or support', () => {
    for (const role of ['admin', 'developer', 'support', 'viewer'] as const) {
      const cancels = role === 'admin' || role === 'support';
      const active = subscriptionPage(
        view('en', { role }),
        subscription(),
        subscriptionView(subscription()),
      ).html;
      expect(active.includes('/cancel"'), role).toBe(cancels);
      expect(active.includes('/cancel-at-period-end"'), role).toBe(cancels);
      expect(active.includes(customerWords.en.cancelIntro), role).toBe(cancels);
      const set = subscriptionPage(view('en', { role }), ending, subscriptionView(ending)).html;
      expect(set.includes('/resume"'), role).toBe(cancels);
      // The day it ends is among its fields, for every role.
      expect(set).toContain('<time data-ends');
    }
  });

  it('trialing: "Cancel at end of trial", on the trial\'s end', () => {
    const trial = subscription({
      status: 'trialing',
      trial_end: '2026-11-02T10:00:00.000Z',
      anchor: '2026-11-02T10:00:00.000Z',
      paid_through: -1,
    });
    const { html } = subscriptionPage(view('es'), trial, subscriptionView(trial));
    expect(html).toContain('>Cancelar al final de la prueba</button>');
    expect(html).toContain('el periodo de prueba sigue hasta el 2 nov 2026');
  });

  it('set to end: the day it ends in place of the next billing date, and Resume until that day', () => {
    const shown = subscriptionView(ending);
    const before = subscriptionPage(view(), ending, shown, undefined, {
      now: new Date('2026-11-20T00:00:00Z'),
    });
    expect(before.html).toContain(
      '<dt>Ends on</dt><dd><time data-ends datetime="2026-11-26T10:00:00.000Z">26 Nov 2026</time></dd>',
    );
    expect(before.html).not.toContain('Next billing date');
    expect(before.html).toContain('It ends on 26 Nov 2026: it will not renew, and nothing more is charged.');
    expect(before.html).toMatch(
      /action="[^"]*\/resume"><input type="hidden" name="csrf_token"[^>]*><button type="submit">Resume<\/button>/,
    );
    expect(before.html).not.toContain('Cancel at end of period');
    expect(before.html).toContain('Cancel now…');
    // Its day come (the billing step has not ended it yet): nothing to resume.
    const after = subscriptionPage(view(), ending, shown, undefined, {
      now: new Date('2026-11-26T10:00:00Z'),
    });
    expect(after.html).toContain('Its end has come: it can no longer be resumed.');
    expect(after.html).not.toContain('/resume"');
  });

  it('says a notice of the query only while the record holds it', () => {
    const plain = subscription();
    const shownEnding = subscriptionPage(view(), ending, subscriptionView(ending), { kind: 'ending' }).html;
    expect(shownEnding).toContain('<p class="notice" role="status">The subscription ends on 26 Nov 2026.');
    const notEnding = subscriptionPage(view(), plain, subscriptionView(plain), { kind: 'ending' }).html;
    expect(notEnding).not.toContain('class="notice"');
    expect(subscriptionPage(view(), plain, subscriptionView(plain), { kind: 'resumed' }).html).toContain(
      'The subscription renews as before',
    );
    expect(
      subscriptionPage(view(), ending, subscriptionView(ending), { kind: 'resumed' }).html,
    ).not.toContain('class="notice"');
  });

  it.each(langs)('a refused end or Resume (409) says why from the status, in its words (%s)', (lang) => {
    const c = customerWords[lang];
    const problem = { status: 409, message: hostile };
    const cases: [Subscription, string][] = [
      [subscription({ status: 'past_due', failed_attempts: 1 }), c.notEndable],
      [subscription({ status: 'canceled', canceled_at: '2026-11-01T10:00:00.000Z' }), c.alreadyCanceled],
      [subscription({ status: 'pending', paid_through: -1 }), c.notStarted],
    ];
    for (const [refused, why] of cases) {
      const page = subscriptionPage(view(lang), refused, subscriptionView(refused), {
        kind: 'unchangeable',
        problem,
      });
      expect(page.status).toBe(409);
      expect(page.html).toContain(`<p class="error" role="alert">${why}</p>`);
      expect(page.html).not.toContain('/cancel-at-period-end"');
    }
  });

  it("a pending change: the plan's name as it is now, or, deleted since, the name it was asked with and its id", () => {
    const shown = subscriptionView(withPending);
    const now = subscriptionPage(view(), withPending, shown, undefined, { pendingPlan: { name: 'Silver' } });
    expect(now.html).toContain(
      '<dt>Pending change</dt><dd>Changes to Silver × 3 on 26 Nov 2026 <small>(<code>77777777-2222-4333-8444-555555555555</code>)</small></dd>',
    );
    const deleted = subscriptionPage(view('es'), withPending, shown, undefined, { pendingPlan: 'deleted' });
    expect(deleted.html).toContain(
      '<dt>Cambio pendiente</dt><dd>Cambia a Bronze × 3 el 26 nov 2026. El plan 77777777-2222-4333-8444-555555555555 se eliminó después',
    );
    expect(subscriptionPage(view(), subscription(), subscriptionView(subscription())).html).not.toContain(
      'Pending change',
    );
  });

  it('a subscription shows its plan, amount per interval, period, card and customer; cancel is a step away', () => {
    const { html, status } = subscriptionPage(view(), subscription(), subscriptionView(subscription()));
    expect(status).toBe(200);
    expect(html).toContain('10.50 USD × 2 = 21.00 USD / month');
    expect(html).toContain('26 Oct 2026 – 26 Nov 2026');
    expect(html).toContain('Card •••• 4242');
    expect(html).toContain(`href="https://pay.example.com/dashboard/customers/${customer.id}"`);
    expect(html).toContain(
      'href="https://pay.example.com/dashboard/subscriptions/sub_AAAAAAAAAAAAAAAAAAAAAAAA/cancel"',
    );
    // The page itself has no form that cancels.
    expect(html).not.toMatch(/<form method="post" action="[^"]*\/cancel"/);
  });

  it('a past-due subscription says what is owed, since when and the next try, in both languages', () => {
    const overdue = subscription({
      status: 'past_due',
      paid_through: 0,
      failed_attempts: 1,
      failed_at: '2026-11-26T10:05:00.000Z',
      next_action_at: '2026-11-27T10:00:00.000Z',
    });
    const en = subscriptionPage(view(), overdue, subscriptionView(overdue)).html;
    expect(en).toContain(
      'Renewal failed: 21.00 USD due since 26 Nov 2026. The card is tried again on 27 Nov 2026.',
    );
    const es = subscriptionPage(view('es'), overdue, subscriptionView(overdue)).html;
    expect(es).toContain('se deben 21,00 USD desde el 26 nov 2026');
    const last = subscription({ status: 'past_due', next_action_at: null });
    expect(subscriptionPage(view(), last, subscriptionView(last)).html).toContain('No retry is left.');
    expect(subscriptionPage(view(), subscription(), subscriptionView(subscription())).html).not.toContain(
      'Renewal failed',
    );
  });

  it('a trial canceled before its end: its last period is the trial, and no trial end is promised', () => {
    const canceled = subscription({
      status: 'canceled',
      active: false,
      anchor: '2026-12-03T10:00:00.000Z',
      started_at: '2026-11-26T10:00:00.000Z',
      trial_end: '2026-12-03T10:00:00.000Z',
      canceled_at: '2026-11-27T10:00:00.000Z',
      next_action_at: null,
    });
    const html = subscriptionPage(view(), canceled, subscriptionView(canceled)).html;
    expect(html).toContain('<dt>Last period</dt><dd>26 Nov 2026 – 3 Dec 2026</dd>');
    expect(html).not.toContain('Current period');
    expect(html).not.toContain('Trial ends');
    expect(subscriptionPage(view(), subscription(), subscriptionView(subscription())).html).toContain(
      '<dt>Current period</dt>',
    );
  });

  it('every two months, a single unit, no card kept, canceled: said so, and no way to cancel', () => {
    const old = subscription({
      plan: { name: 'Basic', amount: 500, currency: 'JPY', interval: 'month', interval_count: 2 },
      quantity: 1,
      card: undefined,
      status: 'canceled',
      canceled_at: '2026-10-27T10:00:00.000Z',
    });
    for (const lang of langs) {
      const { html } = subscriptionPage(view(lang), old, subscriptionView(old));
      const c = customerWords[lang];
      expect(html).toContain(lang === 'en' ? '500 JPY every 2 months' : '500 JPY cada 2 meses');
      expect(html).toContain(c.noCard);
      expect(html).toContain(c.notCancelable);
      expect(html).not.toContain('/cancel"');
    }
  });

  it('the confirmation posts the cancel with the CSRF token, and offers to keep it', () => {
    const { html } = confirmCancelPage(view('es'), subscription());
    expect(html).toMatch(
      new RegExp(
        `<form method="post" action="https://pay.example.com/dashboard/subscriptions/sub_A+/cancel"><input type="hidden" name="csrf_token" value="${csrf}">`,
      ),
    );
    expect(html).toContain('Sí, cancelar la suscripción');
    expect(html).toContain('No, mantenerla');
  });

  it("the list's filter form shows the filters asked for, and its page links keep them", () => {
    const { html } = subscriptionsPage(
      view(),
      { count: 30, current_page: 2, total_pages: 3, results: [subscription()] },
      { status: 'past_due', planId: 'p1', pageSize: 10 },
      nextBilling,
    );
    expect(html).toContain('<option value="past_due" selected>');
    expect(html).toContain('value="p1"');
    expect(html).toContain(
      '/subscriptions?page=3&amp;page_size=10&amp;status=past_due&amp;plan_id=p1" rel="next"',
    );
  });
});

describe('the customers and subscriptions tables', () => {
  it.each(langs)('label every cell with its column, dates on one line (%s)', (lang) => {
    const k = customerWords[lang].customerColumns;
    const [customers] = expectLabelledTables(
      customersPage(view(lang), { count: 1, customers: [customer] }, undefined, '').html,
      1,
    );
    if (!customers) throw new Error('no table');
    expect(customers.headings).toEqual([k.name, k.email, k.country, k.created]);
    expect(cellUnder(customers, k.created).classes).toEqual(['nowrap']);

    const s = customerWords[lang].subscriptionColumns;
    const [list] = expectLabelledTables(
      subscriptionsPage(
        view(lang),
        { count: 1, current_page: 1, total_pages: 1, results: [subscription()] },
        {},
        nextBilling,
      ).html,
      1,
    );
    if (!list) throw new Error('no table');
    expect(list.headings).toEqual([
      s.subscription,
      s.plan,
      s.customer,
      s.status,
      s.amount,
      s.nextBilling,
      s.created,
    ]);
    expect(cellUnder(list, s.customer).html).toBe(
      `<a href="https://pay.example.com/dashboard/customers/${customer.id}"><code>${customer.id}</code></a>`,
    );
    // The status cell keeps its own attribute, for what reads the page.
    expect(list.rows[0]?.[3]?.label).toBe(s.status);
    expect(
      subscriptionsPage(
        view(lang),
        { count: 1, current_page: 1, total_pages: 1, results: [subscription()] },
        {},
        nextBilling,
      ).html,
    ).toContain(`<td role="cell" data-label="${s.status}" data-status="active">`);
    expect(cellUnder(list, s.nextBilling).classes).toEqual(['nowrap']);
  });

  it("the customer's page: its subscriptions (no customer column) and its charges", () => {
    const { html } = customerPage(
      view(),
      customer,
      { records: [subscription()], more: false, page: 1 },
      { records: [charge], more: false, page: 1 },
      nextBilling,
      'K'.repeat(32),
    );
    const [subscriptions, charges] = expectLabelledTables(html, 2);
    if (!subscriptions || !charges) throw new Error('no tables');
    expect(subscriptions.headings).not.toContain('Customer');
    expect(charges.headings).toEqual(['Date', 'Charge', 'Description', 'Amount', 'Refunded', 'Card']);
    expect(cellUnder(charges, 'Amount')).toMatchObject({ classes: ['num'], html: '21.00 USD' });
    expect(cellUnder(charges, 'Card').classes).toEqual(['nowrap']);
  });
});
