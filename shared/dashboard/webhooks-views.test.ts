import { describe, expect, it } from 'vitest';
import { cellUnder, expectLabelledTables } from '../../test/support/records-table.ts';
import type { Lang } from '../core/messages.ts';
import { render } from '../web/html.ts';
import { eventPage, eventsPage } from './events-views.ts';
import { keyConfirmPage, keyRotatedPage, keysPage } from './keys-views.ts';
import type { ShellContext } from './shell.ts';
import { endpointPage, endpointsPage, pager, secretPage } from './webhooks-views.ts';
import { webhookWords } from './webhooks-words.ts';

const hostile = `<script>alert("x")</script>'&`;
const csrf = 'C'.repeat(32);
const formKey = 'K'.repeat(32);

const view = (lang: Lang = 'en', overrides: Partial<ShellContext> = {}): ShellContext => ({
  lang,
  root: 'https://pay.example.com/dashboard',
  role: 'admin',
  email: 'ada@example.com',
  twoFactor: false,
  merchant: 'Shop',
  mode: 'test',
  csrf,
  here: 'webhooks',
  section: 'webhooks',
  ...overrides,
});

const endpoint = {
  id: 'we_AAAAAAAAAAAAAAAAAAAAAAAA',
  url: `https://example.com/hook?q=${hostile}`,
  events: ['plan.deleted'],
  description: hostile,
  enabled: true,
  created_at: '2026-10-26T10:00:00.000Z',
};

const delivery = {
  id: 'del_1',
  event_id: 'evt_BBBBBBBBBBBBBBBBBBBBBBBB',
  event_type: 'plan.deleted',
  attempt: 2,
  status_code: 500,
  duration_ms: 12,
  error: hostile,
  created_at: '2026-10-26T10:00:00.000Z',
  next_retry_at: '2026-10-26T10:05:00.000Z',
};

/** No raw hostile text anywhere: every value the page shows is escaped. */
const expectEscaped = (html: string) => {
  expect(html).not.toContain('<script>');
  expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;');
};

describe('webhooks pages', () => {
  it('the endpoints list escapes every value, pages as the API does, and its form posts the CSRF token and key', () => {
    const page = endpointsPage(
      view(),
      { endpoints: [endpoint], count: 3, page: { page: 2, pageSize: 1 } },
      ['plan.deleted', 'charge.succeeded'],
      { idempotencyKey: formKey, url: hostile, events: ['charge.succeeded'] },
      { maxEndpoints: 16 },
    );
    expect(page.status).toBe(200);
    expectEscaped(page.html);
    expect(page.html).toContain(`name="csrf_token" value="${csrf}"`);
    expect(page.html).toContain(`name="idempotency_key" value="${formKey}"`);
    expect(page.html).toMatch(/value="charge.succeeded" checked>/);
    expect(page.html).not.toMatch(/value="plan.deleted" checked>/);
    expect(page.html).toContain('Page 2 of 3 (3 in all)');
    expect(page.html).toContain('webhooks?page=1&amp;page_size=1" rel="prev"');
    expect(page.html).toContain('webhooks?page=3&amp;page_size=1" rel="next"');
  });

  it('a refusal is shown with its status', () => {
    const page = endpointsPage(
      view(),
      undefined,
      [],
      { idempotencyKey: formKey, problem: { status: 400, message: hostile } },
      {
        maxEndpoints: 16,
      },
    );
    expect(page.status).toBe(400);
    expect(page.html).toContain('role="alert"');
    expectEscaped(page.html);
  });

  it('the secret page shows the secret, escaped, and says it is shown once', () => {
    const page = secretPage(view(), 'Added', endpoint, `whsec_${hostile}`, 201);
    expect(page.status).toBe(201);
    expectEscaped(page.html);
    expect(page.html).toContain(webhookWords.en.secretOnce);
  });

  it("an endpoint's page lists its deliveries with a Redeliver form each, and the limits", () => {
    const page = endpointPage(
      view(),
      endpoint,
      { rows: [{ delivery, redeliverKey: formKey }], count: 1, page: { page: 1, pageSize: 20 } },
      { perEvent: 5, perAccount: 100 },
    );
    expectEscaped(page.html);
    expect(page.html).toContain('<td role="cell" class="num" data-label="Answer code">500</td>');
    expect(page.html).toContain(
      `<input type="hidden" name="csrf_token" value="${csrf}"><input type="hidden" name="event_id" value="${delivery.event_id}"><input type="hidden" name="idempotency_key" value="${formKey}">`,
    );
    expect(page.html).toContain('5 times an hour');
    expect(page.html).toContain('/rotate-secret"');
    expect(page.html).toContain('/delete"');
  });

  it('offers adding, rotating, deleting and redelivering only to a role that may manage webhooks', () => {
    for (const role of ['admin', 'developer', 'support', 'viewer'] as const) {
      const manages = role === 'admin' || role === 'developer';
      const list = endpointsPage(
        view('en', { role }),
        { endpoints: [endpoint], count: 1, page: { page: 1, pageSize: 20 } },
        ['plan.deleted'],
        { idempotencyKey: formKey },
        { maxEndpoints: 16 },
      ).html;
      expect(list).toContain(`/webhooks/${endpoint.id}"`);
      expect(
        list.includes('<form method="post" action="https://pay.example.com/dashboard/webhooks"'),
        role,
      ).toBe(manages);
      expect(list.includes(webhookWords.en.addEndpoint), role).toBe(manages);
      const one = endpointPage(
        view('en', { role }),
        endpoint,
        { rows: [{ delivery, redeliverKey: formKey }], count: 1, page: { page: 1, pageSize: 20 } },
        { perEvent: 5, perAccount: 100 },
      ).html;
      // Every role reads the endpoint and its deliveries, each linked to its event.
      expect(one).toContain(`/events/${delivery.event_id}"`);
      expect(one.includes('/redeliver"'), role).toBe(manages);
      expect(one.includes('5 times an hour'), role).toBe(manages);
      expect(one.includes('/rotate-secret"'), role).toBe(manages);
      expect(one.includes('/delete"'), role).toBe(manages);
      const [deliveries] = expectLabelledTables(one, 1);
      expect(deliveries?.headings.includes(webhookWords.en.columns.action), role).toBe(manages);
    }
  });

  it('the pager keeps the filters and never links past the last page', () => {
    const html = render(pager(view(), 'events', { page: 1, pageSize: 10 }, 10, { type: 'plan.deleted' }));
    expect(html).toContain('Page 1 of 1 (10 in all)');
    expect(html).not.toContain('rel="next"');
    expect(render(pager(view(), 'events', { page: 1, pageSize: 5 }, 10, { type: 'a&b' }))).toContain(
      'events?type=a%26b&amp;page=2&amp;page_size=5',
    );
  });
});

describe('events pages', () => {
  it('the list and the JSON of an event are escaped', () => {
    const event = {
      id: 'evt_BBBBBBBBBBBBBBBBBBBBBBBB',
      type: 'plan.deleted',
      created_at: '2026-10-26T10:00:00.000Z',
      test: true,
      data: { object: { name: hostile } },
    };
    const list = eventsPage(
      view(),
      { results: [event], count: 1, page: { page: 1, pageSize: 20 }, type: 'plan.deleted' },
      ['plan.deleted'],
      { retentionDays: 30 },
    );
    expect(list.html).toContain('<option value="plan.deleted" selected>');
    const one = eventPage(view(), event);
    expect(one.html).not.toContain('<script>');
    expect(one.html).toContain('&quot;name&quot;: &quot;&lt;script&gt;alert(\\&quot;x\\&quot;)');
  });
});

describe('API keys pages', () => {
  const keys = {
    test: { key: 'sk_test_…abcd', created_at: '2026-10-26T10:00:00.000Z' },
    live: { key: 'sk_live_…wxyz', created_at: '2026-10-26T10:00:00.000Z' },
  };

  it('a test session is offered only the test key’s rotation; a live one both', () => {
    const test = keysPage(view('en', { mode: 'test' }), keys);
    expect(test.html).toContain('rotate?type=test');
    expect(test.html).not.toContain('rotate?type=live');
    const live = keysPage(view('en', { mode: 'live' }), keys);
    expect(live.html).toContain('rotate?type=test');
    expect(live.html).toContain('rotate?type=live');
  });

  it('a developer sees both keys masked, with no rotation and no word of one', () => {
    for (const mode of ['test', 'live'] as const) {
      const page = keysPage(view('en', { mode, role: 'developer' }), keys).html;
      expect(page).toContain('sk_test_…abcd');
      expect(page).toContain('sk_live_…wxyz');
      expect(page).not.toContain('/api-keys/rotate');
      expect(page).not.toContain(webhookWords.en.rotateKeyTestOnly);
      const [table] = expectLabelledTables(page, 1);
      expect(table?.headings).not.toContain(webhookWords.en.columns.action);
    }
  });

  it('the confirmation warns when the session’s own key is rotated', () => {
    expect(keyConfirmPage(view('en', { mode: 'test' }), 'test').html).toContain(
      webhookWords.en.keyConfirmOwn,
    );
    expect(keyConfirmPage(view('en', { mode: 'live' }), 'test').html).not.toContain(
      webhookWords.en.keyConfirmOwn,
    );
  });

  it('the new key’s page keeps the session: the navigation and its forms stay', () => {
    const page = keyRotatedPage(view('es'), { type: 'test', key: `sk_test_${hostile}` });
    expectEscaped(page.html);
    expect(page.html).toContain(csrf);
    expect(page.html).toContain('href="https://pay.example.com/dashboard/api-keys"');
    expect(page.html).toContain('lang="es"');
  });
});

describe('both languages', () => {
  it('every word is given in English and Spanish', () => {
    const keysOf = (value: unknown): string[] =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner).map((k) => `${key}.${k}`)])
        : [];
    expect(keysOf(webhookWords.es).sort()).toEqual(keysOf(webhookWords.en).sort());
    const page = endpointsPage(view('es'), undefined, [], { idempotencyKey: formKey }, { maxEndpoints: 16 });
    expect(page.html).toContain(webhookWords.es.addEndpoint);
    expect(page.html).not.toContain(webhookWords.en.addEndpoint);
  });
});

describe('the webhooks, events and keys tables', () => {
  it.each(['en', 'es'] as const)('label every cell with its column (%s)', (lang) => {
    const c = webhookWords[lang].columns;
    const at = { page: 1, pageSize: 20 };
    const [endpoints] = expectLabelledTables(
      endpointsPage(
        view(lang),
        { endpoints: [endpoint], count: 1, page: at },
        [],
        { idempotencyKey: formKey },
        {
          maxEndpoints: 16,
        },
      ).html,
      1,
    );
    const [deliveries] = expectLabelledTables(
      endpointPage(
        view(lang),
        endpoint,
        { rows: [{ delivery, redeliverKey: formKey }], count: 1, page: at },
        {
          perEvent: 5,
          perAccount: 100,
        },
      ).html,
      1,
    );
    const event = {
      id: 'evt_B',
      type: 'plan.deleted',
      created_at: '2026-10-26T10:00:00.000Z',
      test: true,
      data: { object: {} },
    };
    const [events] = expectLabelledTables(
      eventsPage(view(lang), { results: [event], count: 1, page: at }, [], { retentionDays: 30 }).html,
      1,
    );
    const keys = {
      test: { key: 'sk_test_…abcd', created_at: '2026-10-26T10:00:00.000Z' },
      live: { key: 'sk_live_…wxyz', created_at: '2026-10-26T10:00:00.000Z' },
    };
    const [keyTable] = expectLabelledTables(keysPage(view(lang), keys).html, 1);
    if (!endpoints || !deliveries || !events || !keyTable) throw new Error('no tables');
    expect(endpoints.headings).toEqual([c.url, c.events, c.status, c.created]);
    expect(cellUnder(endpoints, c.created).classes).toEqual(['nowrap']);
    expect(deliveries.headings).toEqual([
      c.date,
      c.event,
      c.attempt,
      c.answer,
      c.error,
      c.duration,
      c.nextRetry,
      c.action,
    ]);
    expect(cellUnder(deliveries, c.answer)).toMatchObject({ classes: ['num'], html: '500' });
    expect(cellUnder(deliveries, c.duration)).toMatchObject({ classes: ['num'], html: '12 ms' });
    expect(cellUnder(deliveries, c.nextRetry).classes).toEqual(['nowrap']);
    expect(events.headings).toEqual([c.date, c.type, c.event]);
    expect(keyTable.headings).toEqual([c.mode, c.key, c.created, c.action]);
    expect(keyTable.rows).toHaveLength(2);
    // The live key may not be rotated from a test session: an empty cell.
    expect(keyTable.rows[1]?.[3]?.html).toBe('');
  });
});
