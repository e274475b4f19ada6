import { describe, expect, it } from 'vitest';
import { cellUnder, expectLabelledTables } from '../../test/support/records-table.ts';
import type { Lang } from '../core/messages.ts';
import type { LinkListItem } from '../payment-links/link.ts';
import type { Plan } from '../plans/plan.ts';
import type { Product } from '../products/product.ts';
import { html, render } from '../web/html.ts';
import { type CreateForm, notFoundPage } from './catalog-views.ts';
import { catalogWords } from './catalog-words.ts';
import { linkDeletePage, linksPage } from './links-views.ts';
import { planDeletePage, plansPage } from './plans-views.ts';
import { productDeletePage, productsPage } from './products-views.ts';
import type { ShellContext } from './shell.ts';
import { subscriptionsPage } from './subscriptions-views.ts';

const hostile = `<script>alert("x")</script>'&`;
const csrf = 'C'.repeat(32);
/** Text as a page writes it: escaped by an html template. */
const escaped = (text: string) => render(html`${text}`);
const key = 'K'.repeat(32);

const view = (lang: Lang = 'en', section: ShellContext['section'] = 'plans'): ShellContext => ({
  lang,
  root: 'https://pay.example.com/dashboard',
  role: 'admin',
  email: 'ada@example.com',
  twoFactor: false,
  merchant: 'Shop',
  mode: 'test',
  csrf,
  here: section,
  section,
});

const plan = (overrides: Partial<Plan> = {}): Plan => ({
  id: '0b6f3a52-5f0e-4d43-9d8e-2a1c9c0b7e11',
  developer_id: 1,
  mode: 'test',
  name: hostile,
  name_search: hostile.toLowerCase(),
  description: '',
  currency: 'USD',
  amount: 123456,
  amount_scaled: 1234560,
  interval: 'month',
  interval_count: 3,
  trial_period_days: 14,
  active: true,
  subscriber_count: 2,
  image: null,
  created_at: '2026-10-26T10:00:00.000Z',
  updated_at: '2026-10-26T10:00:00.000Z',
  ...overrides,
});

const product = {
  id: '1b6f3a52-5f0e-4d43-9d8e-2a1c9c0b7e11',
  name: hostile,
  short_description: hostile,
  sku: hostile,
  stock: 3,
  price: 750,
  currency: 'USD',
  created_at: '2026-10-26T10:00:00.000Z',
} as Product;

const link: LinkListItem = {
  id: '2b6f3a52-5f0e-4d43-9d8e-2a1c9c0b7e11',
  description: hostile,
  amount: '1234.50',
  currency: 'USD',
  payment_link: true,
  active: true,
  recurring: false,
  next_date_of_payment: null,
  status: 'pending',
  test: true,
  created_on: '2026-10-26T10:00:00.000Z',
  link: `https://pay.example.com/pay/${hostile}`,
  customer: null,
  customer_name: null,
  product: null,
};

const fresh: CreateForm = { idempotencyKey: key, values: {}, fieldErrors: {} };
const page = { page: 1, pageSize: 1 };

describe('the catalog pages', () => {
  it('escape every value and carry the CSRF token and the form key in every form', () => {
    const pages = [
      plansPage(view(), { name: hostile }, { records: [plan()], count: 1, page }, fresh),
      planDeletePage(view(), plan()),
      productsPage(view('en', 'products'), {}, { records: [product], count: 1, page }, fresh),
      productDeletePage(view('en', 'products'), product),
      linksPage(view('en', 'links'), {}, { records: [link], count: 1, page }, fresh, {
        description: hostile,
        link: link.link,
      }),
      linkDeletePage(view('en', 'links'), link),
    ];
    for (const { html } of pages) {
      expect(html).not.toContain(hostile);
      expect(html).not.toMatch(/<script/i);
      for (const form of html.match(/<form method="post"[\s\S]*?<\/form>/g) ?? [])
        expect(form).toContain(`name="csrf_token" value="${csrf}"`);
    }
    for (const index of [0, 2, 4])
      expect(pages[index]?.html).toContain(`name="idempotency_key" value="${key}"`);
  });

  it('write prices the shared way, in the reader’s format and language', () => {
    const en = plansPage(view(), {}, { records: [plan()], count: 1, page }, fresh).html;
    expect(en).toContain('1,234.56 USD every 3 months');
    expect(en).toContain('14 days');
    const es = plansPage(view('es'), {}, { records: [plan()], count: 1, page }, fresh).html;
    expect(es).toContain('1.234,56 USD cada 3 meses');
    expect(es).toContain('Nuevo plan');
    const links = linksPage(view('es', 'links'), {}, { records: [link], count: 1, page }, fresh).html;
    expect(links).toContain('1.234,50 USD');
  });

  it('page the list as the API does, keeping the filters', () => {
    const html = plansPage(
      view(),
      { interval: 'month', page_size: '1', created: 'x' },
      {
        records: [plan()],
        count: 3,
        page: { page: 2, pageSize: 1 },
      },
      fresh,
    ).html;
    expect(html).toContain('Page 2 of 3 (3 in all)');
    expect(html).toContain(
      'href="https://pay.example.com/dashboard/plans?interval=month&amp;page_size=1&amp;page=1" rel="prev"',
    );
    expect(html).toContain(
      'href="https://pay.example.com/dashboard/plans?interval=month&amp;page_size=1&amp;page=3" rel="next"',
    );
  });

  it('show the schema’s errors beside their fields, with the status', () => {
    const refused = plansPage(view(), {}, undefined, {
      idempotencyKey: key,
      values: { name: 'Gold', amount: '9.999' },
      fieldErrors: { amount: 'Too many decimals.' },
      problem: { status: 400, message: 'Too many decimals.' },
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('aria-describedby="amount_help amount_error"');
    expect(refused.html).toContain('<p id="amount_error" class="error">Too many decimals.</p>');
    expect(refused.html).toContain('value="9.999"');
  });

  it('say on the confirmation page what deleting does, in both languages', () => {
    expect(planDeletePage(view(), plan()).html).toContain(catalogWords.en.deletePlanWarning(2));
    expect(planDeletePage(view('es'), plan({ subscriber_count: 1 })).html).toContain(
      catalogWords.es.deletePlanWarning(1),
    );
    // None to cancel: it says so, and nothing of cancelling or e-mailing.
    const none = planDeletePage(view(), plan({ subscriber_count: 0 })).html;
    expect(none).toContain('Deleting a plan is for good. It has no active subscriptions.');
    expect(none).not.toMatch(/Its 0|canceled|e-mailed/);
    const ninguna = planDeletePage(view('es'), plan({ subscriber_count: 0 })).html;
    expect(ninguna).toContain('Eliminar un plan es definitivo. No tiene suscripciones activas.');
    expect(ninguna).not.toMatch(/Sus 0|se cancelan|correo/);
    expect(notFoundPage(view(), 'plans').status).toBe(404);
  });

  it("the subscriptions page's plan filter says where a plan's key is found: the plans list links there", () => {
    for (const [lang, where] of [
      ['en', 'Under Plans, the count of each plan’s active subscriptions links here'],
      ['es', 'En Planes, el número de suscripciones activas de cada plan enlaza aquí'],
    ] as const) {
      const { html } = subscriptionsPage(
        view(lang, 'subscriptions'),
        undefined,
        { pageSize: 10 },
        () => null,
      );
      expect(html).toMatch(new RegExp(`<p id="plan_help" class="help">[^<]*${escaped(where)}`));
    }
  });

  it('offer creating, archiving and deleting only to a role that may change the catalog', () => {
    const root = 'https://pay.example.com/dashboard';
    const one = <T>(record: T) => ({ records: [record], count: 1, page });
    for (const role of ['admin', 'developer', 'support', 'viewer'] as const) {
      const as = (section: ShellContext['section']) => ({ ...view('en', section), role });
      const plans = plansPage(as('plans'), {}, one(plan()), fresh).html;
      const products = productsPage(as('products'), {}, one(product), fresh).html;
      const links = linksPage(as('links'), {}, one(link), fresh).html;
      const edits = role === 'admin' || role === 'developer';
      // Every role reads the lists; only the catalog's editors see its forms and links.
      expect(plans).toContain(escaped(hostile));
      expect(plans.includes(`<form method="post" action="${root}/plans"`), role).toBe(edits);
      expect(plans.includes(`/active"`), role).toBe(edits);
      expect(plans.includes(`/delete"`), role).toBe(edits);
      expect(plans.includes(catalogWords.en.archiveHelp), role).toBe(edits);
      expect(plans.includes(catalogWords.en.newPlan), role).toBe(edits);
      expect(products.includes(`<form method="post" action="${root}/products"`), role).toBe(edits);
      expect(products.includes(`/delete"`), role).toBe(edits);
      expect(links.includes(`<form method="post" action="${root}/links"`), role).toBe(edits);
      expect(links.includes(`/delete"`), role).toBe(edits);
      // The table loses its actions column rather than showing it empty.
      for (const html of [plans, products, links]) {
        const [table] = expectLabelledTables(html, 1);
        expect(table?.headings.includes(catalogWords.en.columns.actions), role).toBe(edits);
      }
    }
  });

  it('are linked in the navigation, the current one marked', () => {
    const { html } = plansPage(view(), {}, undefined, fresh);
    expect(html).toContain('<a href="https://pay.example.com/dashboard/plans" aria-current="page">Plans</a>');
    expect(html).toContain('<a href="https://pay.example.com/dashboard/products">Products</a>');
    expect(html).toContain('<a href="https://pay.example.com/dashboard/links">Payment links</a>');
  });

  it('have every word in both languages', () => {
    const keysOf = (words: object): string[] =>
      Object.entries(words).flatMap(([name, value]) =>
        value && typeof value === 'object' ? keysOf(value).map((inner) => `${name}.${inner}`) : [name],
      );
    expect(keysOf(catalogWords.es)).toEqual(keysOf(catalogWords.en));
  });
});

describe('the catalog tables', () => {
  it.each(['en', 'es'] as const)(
    'label every cell with its column, amounts and dates set apart (%s)',
    (lang) => {
      const c = catalogWords[lang].columns;
      const list = <T>(record: T) => ({ records: [record], count: 1, page });
      const [plans] = expectLabelledTables(plansPage(view(lang), {}, list(plan()), fresh).html, 1);
      const [products] = expectLabelledTables(
        productsPage(view(lang, 'products'), {}, list(product), fresh).html,
        1,
      );
      const [links] = expectLabelledTables(linksPage(view(lang, 'links'), {}, list(link), fresh).html, 1);
      if (!plans || !products || !links) throw new Error('no tables');
      expect(plans.headings).toEqual([
        c.name,
        c.price,
        c.trial,
        c.subscribers,
        c.status,
        c.created,
        c.actions,
      ]);
      const subscribers = cellUnder(plans, c.subscribers);
      expect(subscribers.classes).toEqual(['num']);
      // The count links to the plan's subscriptions, named by the count then what it lists.
      const name = catalogWords[lang].subscribersLink(2, hostile);
      expect(subscribers.html).toBe(
        `<a href="https://pay.example.com/dashboard/subscriptions?plan_id=0b6f3a52-5f0e-4d43-9d8e-2a1c9c0b7e11" aria-label="${escaped(name)}">2</a>`,
      );
      expect(name.startsWith('2: ')).toBe(true);
      expect(cellUnder(plans, c.created).classes).toEqual(['nowrap']);
      expect(cellUnder(plans, c.actions).html).toContain('<button type="submit" class="small"');
      expect(products.headings).toEqual([
        c.name,
        c.description,
        c.price,
        c.sku,
        c.stock,
        c.created,
        c.actions,
      ]);
      expect(cellUnder(products, c.stock)).toMatchObject({ classes: ['num'], html: '3' });
      expect(links.headings).toEqual([c.description, c.amount, c.status, c.created, c.link, c.actions]);
      expect(cellUnder(links, c.amount).classes).toEqual(['num']);
      expect(cellUnder(links, c.link).html).toMatch(/^<input id="link_0" value="[^"]+" readonly/);
    },
  );
});
