import { describe, expect, it } from 'vitest';
import { cellUnder, expectLabelledTables } from '../../test/support/records-table.ts';
import type { Charge } from '../charges/charge.ts';
import type { Lang } from '../core/messages.ts';
import type { Refund } from '../refunds/refund.ts';
import { emptyOverview } from '../stats/repository.ts';
import { typedAmount } from './amount-input.ts';
import { catalogWords } from './catalog-words.ts';
import { chargePage, chargesPage, money, overviewPage } from './charge-views.ts';
import { customerWords } from './customers-words.ts';
import { messagePage, type ShellContext, signInPage } from './shell.ts';
import { signInWords } from './sign-in-words.ts';
import { webhookWords } from './webhooks-words.ts';
import { dashboardWords } from './words.ts';

const hostile = `<script>alert("x")</script>'&`;
/** Nothing counted yet: the overview's charts, empty. */
const figures = emptyOverview(new Date('2026-03-30T12:00:00Z'));
const csrf = 'C'.repeat(32);

const view = (lang: Lang = 'en', overrides: Partial<ShellContext> = {}): ShellContext => ({
  lang,
  root: 'https://pay.example.com/dashboard',
  role: 'admin',
  email: 'ada@example.com',
  twoFactor: false,
  merchant: hostile,
  mode: 'test',
  csrf,
  here: 'charges',
  section: 'charges',
  ...overrides,
});

const charge = (overrides: Partial<Charge> = {}): Charge => ({
  id: 'ch_AAAAAAAAAAAAAAAAAAAAAAAA',
  developer_id: 1,
  mode: 'test',
  source: 'checkout',
  payment_id: 'pay_BBBBBBBBBBBBBBBBBBBBBBBB',
  customer_id: hostile,
  amount: 2100,
  fee: 91,
  net: 2009,
  currency: 'USD',
  description: hostile,
  statement_description: 'X',
  status: 'succeeded',
  card: {
    brand: hostile,
    last4: '4242',
    expMonth: 12,
    expYear: 2030,
    country: 'US',
  } as unknown as Charge['card'],
  acquirer_reference: 'r',
  refundable: 2100,
  refunded: 0,
  payout_due_at: null,
  paid_out_at: null,
  created_at: '2026-10-26T10:00:00.000Z',
  updated_at: '2026-10-26T10:00:00.000Z',
  ...overrides,
});

const refund: Refund = {
  id: 'RRRRRRRRRRRRRRRRRRRRRRRR',
  developer_id: 1,
  mode: 'test',
  charge_id: 'ch_AAAAAAAAAAAAAAAAAAAAAAAA',
  amount: 500,
  currency: 'USD',
  reason: 'duplicate',
  status: 'succeeded',
  created_at: '2026-10-27T10:00:00.000Z',
  updated_at: '2026-10-27T10:00:00.000Z',
};

/** A page holds no hostile value as markup: only its escaped text. */
function expectEscaped(html: string): void {
  expect(html).not.toContain('<script>');
  expect(html).not.toContain('"x")');
  expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;');
}

/** Every form of a page that posts carries the session's CSRF token (a GET form, a search, changes nothing). */
function expectTokenInEveryForm(html: string): void {
  const forms = html.match(/<form method="post"[^>]*>/g) ?? [];
  const all = html.match(/<form [^>]*>/g) ?? [];
  expect(all.filter((form) => !/method="(post|get)"/.test(form))).toEqual([]);
  expect(forms.length).toBeGreaterThan(0);
  const tokens = html.match(new RegExp(`<input type="hidden" name="csrf_token" value="${csrf}">`, 'g')) ?? [];
  expect(tokens.length).toBe(forms.length);
}

describe('the dashboard shell', () => {
  it('sends no script, refuses framing and caching, and allows forms to its own origin only', () => {
    const page = overviewPage(view(), [charge()], figures);
    const policy = page.headers['Content-Security-Policy'] as string;
    expect(policy).toMatch(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+';/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).not.toMatch(/script-src|unsafe/);
    expect(page.headers['X-Frame-Options']).toBe('DENY');
    expect(page.headers['Cache-Control']).toBe('no-store');
    expect(page.html).not.toMatch(/<script/i);
  });

  it('links every section and marks the page it is on', () => {
    const { html } = overviewPage(view('en', { section: 'overview', here: '' }), [], figures);
    expect(html).toContain('<a href="https://pay.example.com/dashboard/" aria-current="page">Overview</a>');
    const linked: [path: string, name: string][] = [
      ['charges', 'Payments and charges'],
      ['customers', 'Customers'],
      ['subscriptions', 'Subscriptions'],
      ['plans', 'Plans'],
      ['products', 'Products'],
      ['links', 'Payment links'],
      ['webhooks', 'Webhooks'],
      ['events', 'Events'],
      ['api-keys', 'API keys'],
    ];
    for (const [path, name] of linked) {
      expect(html).toContain(`<a href="https://pay.example.com/dashboard/${path}">${name}</a>`);
    }
    // Every section is built: none is listed as to come.
    expect(html).not.toContain('class="soon"');
  });

  it('shows the mode: TEST with its note, LIVE without', () => {
    expect(overviewPage(view(), [], figures).html).toMatch(
      /data-mode="test"><span class="help">Mode:<\/span> TEST/,
    );
    const live = overviewPage(view('en', { mode: 'live' }), [], figures).html;
    expect(live).toMatch(/data-mode="live"><span class="help">Mode:<\/span> LIVE/);
    expect(live).not.toContain('Test mode');
  });
});

describe('the overview page', () => {
  it("draws the last 30 days before the newest charges, in the reader's language", () => {
    const days = figures.days.map((day, index) =>
      index === 29 ? { ...day, charges: 2, volume: { USD: 3300 }, declines: 1 } : day,
    );
    const counted = {
      ...figures,
      days,
      totals: { ...figures.totals, charges: 2, volume: { USD: 3300 }, declines: 1 },
      active_subscriptions: 4,
      mrr: { USD: 1999 },
    };
    const { html } = overviewPage(view('en', { section: 'overview', here: '' }), [charge()], counted);
    expect(html.indexOf('<h2 id="overview-figures">Last 30 days</h2>')).toBeGreaterThan(0);
    expect(html.indexOf('overview-figures')).toBeLessThan(html.indexOf('<h2 id="newest">'));
    expect(html.match(/<svg role="img"/g)).toHaveLength(5);
    expect(html).toContain('<title id="volume-USD-title">Volume in USD: 33.00 USD</title>');
    expect(html).toContain('<dt>Active subscriptions</dt><dd>4</dd>');
    expect(html).toContain('<dd>19.99 USD</dd>');
    expect(html).toMatch(/<style nonce="[^"]+">[^<]*\.chart \.bar\{/);
    const spanish = overviewPage(view('es', { section: 'overview', here: '' }), [], counted).html;
    expect(spanish).toContain('Últimos 30 días');
    expect(spanish).toContain('<title id="declines-title">Rechazos: 1</title>');
  });
});

describe('the pages escape every value and carry the CSRF token in every form', () => {
  for (const lang of ['en', 'es'] as const) {
    it(`overview, list, charge and message pages (${lang})`, () => {
      const pages = [
        overviewPage(view(lang), [charge()], figures),
        chargesPage(view(lang), [charge()], { limit: 1 }),
        chargePage(view(lang), charge({ refunded: 500, refundable: 1600 }), [refund], {
          idempotencyKey: 'K'.repeat(32),
          amount: hostile,
          reason: hostile,
          problem: { status: 400, message: hostile },
        }),
        messagePage(view(lang), 404, hostile, hostile),
      ];
      for (const page of pages) {
        expect(page.html).toContain(`<html lang="${lang}">`);
        expectEscaped(page.html);
        expectTokenInEveryForm(page.html);
      }
    });
  }

  it('the sign-in form escapes its token and posts it back', () => {
    const page = signInPage({ root: 'https://pay.example.com/dashboard', lang: 'en', csrf: '"><x' });
    expect(page.html).not.toContain('"><x');
    expect(page.html).toContain('value="&quot;&gt;&lt;x"');
  });
});

describe('both languages', () => {
  it('speak English and Spanish, with the switch offering the other', () => {
    const en = chargePage(view('en'), charge(), [], { idempotencyKey: 'K'.repeat(32) }).html;
    expect(en).toContain('Refund this charge');
    expect(en).toContain('<button type="submit" lang="es">Español</button>');
    expect(en).toContain('<input type="hidden" name="lang" value="es">');
    const es = chargePage(view('es'), charge(), [], { idempotencyKey: 'K'.repeat(32) }).html;
    expect(es).toContain('Reembolsar este cargo');
    expect(es).toContain('Queda por reembolsar');
    expect(es).toContain('<button type="submit" lang="en">English</button>');
    expect(es).toContain('Cerrar sesión');
    expect(signInPage({ root: 'r', lang: 'es', csrf }).html).toContain('Correo electrónico');
  });
});

describe('the charge page', () => {
  it('holds the form’s idempotency key, full refund by default, the amount posted kept after an error', () => {
    const fresh = chargePage(view(), charge(), [], { idempotencyKey: 'K'.repeat(32) });
    expect(fresh.status).toBe(200);
    expect(fresh.html).toContain(`<input type="hidden" name="idempotency_key" value="${'K'.repeat(32)}">`);
    expect(fresh.html).toContain('Amount to refund (empty: all that is left, 21.00 USD)');
    expect(fresh.html).toContain(
      'name="amount" inputmode="decimal" autocomplete="off" maxlength="32" value=""',
    );
    const refused = chargePage(view(), charge(), [], {
      idempotencyKey: 'K'.repeat(32),
      amount: '99.00',
      reason: 'fraudulent',
      problem: { status: 400, message: 'Too much' },
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('<p class="error" role="alert">Too much</p>');
    expect(refused.html).toContain('value="99.00"');
    expect(refused.html).toContain('<option value="fraudulent" selected>');
  });

  it('offers no refund form when nothing is left, or once paid out', () => {
    const none = chargePage(view(), charge({ refundable: 0, refunded: 2100 }), [refund], {
      idempotencyKey: 'K',
    });
    expect(none.html).not.toContain('name="idempotency_key"');
    expect(none.html).toContain('Nothing is left to refund');
    const paid = chargePage(view(), charge({ paid_out_at: '2026-10-29T00:00:00.000Z' }), [], {
      idempotencyKey: 'K',
    });
    expect(paid.html).not.toContain('name="idempotency_key"');
    expect(paid.html).toContain('This charge was paid out');
  });

  it('offers the refund section only to a role that may refund: an admin or support', () => {
    for (const role of ['admin', 'developer', 'support', 'viewer'] as const) {
      const { html } = chargePage(view('en', { role }), charge(), [refund], { idempotencyKey: 'K' });
      const refunds = role === 'admin' || role === 'support';
      expect(html.includes('/refunds"'), role).toBe(refunds);
      expect(html.includes(dashboardWords.en.refundTitle), role).toBe(refunds);
      // Every role reads the charge and its refunds.
      expect(html).toContain('<code>re_RRRRRRRRRRRRRRRRRRRRRRRR</code>');
    }
    // Nor says why there is no form, to a role that would not have one anyway.
    const paid = chargePage(
      view('en', { role: 'viewer' }),
      charge({ paid_out_at: '2026-10-29T00:00:00.000Z' }),
      [],
      { idempotencyKey: 'K' },
    );
    expect(paid.html).not.toContain('This charge was paid out');
  });

  it('says a refund just made, and lists the refunds', () => {
    const html = chargePage(view(), charge({ refunded: 500, refundable: 1600 }), [refund], {
      idempotencyKey: 'K',
      made: refund,
    }).html;
    expect(html).toContain('<p class="notice" role="status">Refunded 5.00 USD.</p>');
    expect(html).toContain('<code>re_RRRRRRRRRRRRRRRRRRRRRRRR</code>');
  });
});

describe('the charges list', () => {
  it('links the older charges only when the page is full, with the same limit', () => {
    const full = chargesPage(view(), [charge()], { limit: 1 }).html;
    expect(full).toContain(
      'href="https://pay.example.com/dashboard/charges?limit=1&amp;created_before=2026-10-26T10%3A00%3A00.000Z" rel="next"',
    );
    expect(chargesPage(view(), [charge()], { limit: 2 }).html).not.toContain('rel="next"');
    expect(chargesPage(view(), [], { limit: 100 }).html).toContain('No charges yet.');
  });

  it('filtered to none, says so with the filter’s day (or moment), not "no charges yet"', () => {
    const day = { limit: 100, createdBefore: '2026-11-20T00:00:00.000Z' };
    const en = chargesPage(view(), [], day).html;
    expect(en).toContain('<p>No charges created before 20 Nov 2026.</p>');
    expect(en).not.toContain('No charges yet.');
    expect(chargesPage(view('es'), [], day).html).toContain(
      '<p>No hay cargos creados antes del 20 nov 2026.</p>',
    );
    // "Older" asks for a moment: the moment, to the minute.
    const moment = chargesPage(view(), [], { limit: 1, createdBefore: '2026-10-26T10:00:00.000Z' }).html;
    expect(moment).toContain('<p>No charges created before 26 Oct 2026, 10:00 UTC.</p>');
  });

  it('offers the search and the filters as GET forms, showing what was asked', () => {
    const page = chargesPage(
      view(),
      [charge()],
      { limit: 500, createdBefore: '2026-11-20T00:00:00.000Z' },
      undefined,
      'pay_"x',
    ).html;
    expect(page).toContain('role="search"');
    expect(page).toContain('value="pay_&quot;x"');
    expect(page).toContain(
      '<input id="created_before" name="created_before" type="date" value="2026-11-20">',
    );
    expect(page).toContain('<option value="500" selected>500</option>');
    expect(page).toContain(
      '<form method="get" action="https://pay.example.com/dashboard/charges" role="search" class="card">',
    );
    const odd = chargesPage(view('es'), [], { limit: 7 }).html;
    expect(odd).toContain('<option value="7" selected>7</option>');
    expect(odd).toContain('Buscar un cargo');
  });

  it('writes amounts in the currency’s own decimals, in the reader’s number format', () => {
    expect(money(2100, 'USD', 'en')).toBe('21.00 USD');
    expect(money(123450, 'USD', 'en')).toBe('1,234.50 USD');
    expect(money(123450, 'USD', 'es')).toBe('1.234,50 USD');
    expect(money(2100, 'jpy', 'en')).toBe('2,100 JPY');
  });
});

describe('the sign-in form', () => {
  it('asks for an e-mail and a password; 401 for a wrong pair (never saying which), 403 for an expired form', () => {
    const context = { root: 'https://pay.example.com/dashboard', lang: 'en' as const, csrf };
    expect(signInPage(context).status).toBe(200);
    const wrong = signInPage(context, 'wrong_credentials', hostile);
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain('Wrong e-mail address or password.');
    expect(signInPage(context, 'form_expired').status).toBe(403);
    expect(wrong.html).toContain('name="email" type="email"');
    expect(wrong.html).toContain('name="password" type="password"');
    expect(wrong.html).not.toContain('api_key');
    // The e-mail typed is kept, escaped.
    expect(wrong.html).not.toContain(hostile);
    expect(wrong.html).toContain('value="&lt;script&gt;');
  });

  it('says how long an e-mail is locked after too many failures for it', () => {
    const context = { root: 'https://pay.example.com/dashboard', lang: 'en' as const, csrf };
    const locked = signInPage(context, { blocked: 'user', retryAfterSeconds: 900 });
    expect(locked.status).toBe(429);
    expect(locked.html).toContain('it is locked for 15 more minutes');
  });
});

describe('the charges tables', () => {
  const customerId = '11111111-2222-4333-8444-555555555555';
  const customerLink = `<a href="https://pay.example.com/dashboard/customers/${customerId}"><code>${customerId}</code></a>`;

  it.each(['en', 'es'] as const)(
    'label every cell with its column, link the customer, keep dates and cards on one line (%s)',
    (lang) => {
      const c = dashboardWords[lang].columns;
      const charges = [charge({ customer_id: customerId, refunded: 500 }), charge({ customer_id: null })];
      for (const page of [
        chargesPage(view(lang), charges, { limit: 2 }),
        overviewPage(view(lang, { section: 'overview', here: '' }), charges, figures),
      ]) {
        const [table] = expectLabelledTables(page.html, 1);
        if (!table) throw new Error('no table');
        expect(table.headings).toEqual([
          c.date,
          c.id,
          c.description,
          c.amount,
          c.refunded,
          c.card,
          c.customer,
        ]);
        expect(table.rows).toHaveLength(2);
        expect(cellUnder(table, c.amount)).toMatchObject({
          classes: ['num'],
          html: lang === 'en' ? '21.00 USD' : '21,00 USD',
        });
        expect(cellUnder(table, c.refunded).classes).toEqual(['num']);
        expect(cellUnder(table, c.date).classes).toEqual(['nowrap']);
        expect(cellUnder(table, c.card).classes).toEqual(['nowrap']);
        expect(cellUnder(table, c.customer).html).toBe(customerLink);
        // No customer: an empty cell, which the narrow layout leaves out.
        expect(table.rows[1]?.at(-1)?.html).toBe('');
      }
    },
  );

  it("escapes a customer id in the link's address and its text", () => {
    const [table] = expectLabelledTables(chargesPage(view(), [charge()], { limit: 1 }).html, 1);
    if (!table) throw new Error('no table');
    expect(cellUnder(table, 'Customer').html).toBe(
      '<a href="https://pay.example.com/dashboard/customers/%3Cscript%3Ealert(%22x%22)%3C%2Fscript%3E&#39;%26"><code>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;</code></a>',
    );
  });

  it("the charge page's refunds are such a table too, and its customer is linked", () => {
    const { html } = chargePage(view('es'), charge({ customer_id: customerId, refunded: 500 }), [refund], {
      idempotencyKey: 'K'.repeat(32),
    });
    const [refunds] = expectLabelledTables(html, 1);
    if (!refunds) throw new Error('no table');
    expect(refunds.headings).toEqual(['Fecha', 'Importe', 'Motivo', 'ID']);
    expect(cellUnder(refunds, 'Importe')).toMatchObject({ classes: ['num'], html: '5,00 USD' });
    expect(html).toContain(`<dd>${customerLink}</dd>`);
  });
});

/** Every text a words object holds: its strings, and what each of its functions says for a sample. */
function textsOf(words: unknown): string[] {
  if (typeof words === 'string') return [words];
  if (typeof words === 'function') {
    const sample = (arg: unknown) => Array.from({ length: words.length }, () => arg);
    for (const arg of ['2026-03-30T12:00:00.000Z', 2, 0, 1]) {
      try {
        return textsOf(words(...sample(arg)));
      } catch {
        // Another sample.
      }
    }
    return [];
  }
  if (words && typeof words === 'object') return Object.values(words).flatMap(textsOf);
  return [];
}

describe('the Spanish words', () => {
  const spanish = [dashboardWords, catalogWords, customerWords, webhookWords, signInWords].flatMap((words) =>
    textsOf(words.es),
  );

  it('speak to the reader as "tú" everywhere, never as "usted"', () => {
    expect(spanish.length).toBeGreaterThan(300);
    // The register most of the dashboard uses: "Inicia sesión", "revísala", "tu cuenta".
    expect(spanish.some((text) => /\btu cuenta\b/.test(text))).toBe(true);
    const formal =
      /\busted(es)?\b|\b(busque|seleccione|cópielo|revise|revísela|recargue|inténtelo|espere|copie|elija|configure|introduzca)\b|(^|[.:;] )Puede /i;
    expect(spanish.filter((text) => formal.test(text))).toEqual([]);
  });

  it('call charges "cargos", as the charges pages do, never "cobros"', () => {
    // "cobro" alone is the product's name ("panel de cobro").
    expect(spanish.filter((text) => /\bcobros\b/i.test(text))).toEqual([]);
  });
});

describe('an amount typed into a dashboard form', () => {
  it('on a Spanish page, reads a decimal comma as the point, grouped thousands too', () => {
    expect(typedAmount('1,50', 'es')).toBe('1.50');
    expect(typedAmount(' 12,5 ', 'es')).toBe('12.5');
    expect(typedAmount('1.234,50', 'es')).toBe('1234.50');
    expect(typedAmount('1.234.567,5', 'es')).toBe('1234567.5');
  });

  it('passes anything else on as typed, so the API says what is wrong', () => {
    for (const typed of ['1.50', '1000', '1,5,0', '1.23,50', '1.234', ',50', '1,', '1 234,50', 'abc', ''])
      expect(typedAmount(typed, 'es')).toBe(typed);
    // An English page: the API's rule, a point only.
    expect(typedAmount('1,50', 'en')).toBe('1,50');
    expect(typedAmount('1.234,50', 'en')).toBe('1.234,50');
  });
});
