/**
 * The admin pages' views without a stack: every value escaped, every table labelled, the signed-in
 * user marked, a role form per user, the audit log's pager and its read-only note, and the
 * connectors' secret fields never filled in, in both languages.
 */
import { describe, expect, it } from 'vitest';
import { expectLabelledTables } from '../../test/support/records-table.ts';
import { langs } from '../core/messages.ts';
import type { AuditEntry } from '../team/audit.ts';
import type { TeamUser } from '../team/users.ts';
import { html, render } from '../web/html.ts';
import type { ShellContext } from './shell.ts';
import {
  auditLogPage,
  type ConnectionRow,
  connectorsPage,
  disconnectable,
  disconnectPage,
  removeUserPage,
  usersPage,
} from './team-views.ts';
import { teamWords } from './team-words.ts';

const hostile = `<script>alert("x")</script>'&`;
const escaped = (text: string) => render(html`${text}`);
const csrf = 'C'.repeat(32);

const view = (
  lang: ShellContext['lang'] = 'en',
  section: ShellContext['section'] = 'users',
): ShellContext => ({
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

const user = (overrides: Partial<TeamUser> = {}): TeamUser => ({
  user_id: `usr_${'A'.repeat(24)}`,
  developer_id: 1,
  email: 'ada@example.com',
  role: 'admin',
  status: 'active',
  password_version: 1,
  added_by: 'cli',
  created_at: '2026-11-22T10:15:00.000Z',
  updated_at: '2026-11-22T10:15:00.000Z',
  ...overrides,
});

const other = user({
  user_id: `usr_${'B'.repeat(24)}`,
  email: `${hostile}@example.com`,
  role: 'support',
  status: 'invited',
  totp_sealed: 'sealed',
});

describe('the users page', () => {
  it.each(langs)('lists every user, marks the signed-in one, escapes every value, in %s', (lang) => {
    const page = usersPage(
      view(lang),
      [user(), other],
      { idempotencyKey: 'K'.repeat(32), values: { email: hostile }, fieldErrors: { email: hostile } },
      { signedInUserId: user().user_id, invitationDays: 7 },
    );
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain(escaped(hostile));
    const [table] = expectLabelledTables(page.html, 1);
    expect(table?.rows).toHaveLength(2);
    expect(table?.rows[0]?.[0]?.html).toContain(teamWords[lang].you);
    expect(table?.rows[1]?.[0]?.html).not.toContain(teamWords[lang].you);
    // One role form per user, each posting the session's token to the user's own path.
    for (const id of [user().user_id, other.user_id]) {
      expect(page.html).toContain(`action="https://pay.example.com/dashboard/users/${id}/role"`);
      expect(page.html).toContain(`href="https://pay.example.com/dashboard/users/${id}/remove"`);
    }
    expect(page.html.match(/name="csrf_token" value="C{32}"/g)?.length).toBeGreaterThanOrEqual(4);
    expect(page.html).toMatch(/<option value="support" selected>/);
    // The invitation form keeps what was typed and says what was wrong beside it.
    expect(page.html).toContain(`name="email" type="email"`);
    expect(page.html).toContain(`value="${escaped(hostile)}"`);
    expect(page.html).toContain('aria-invalid="true" aria-describedby="invite_email_error"');
    expect(page.html).toContain(`name="idempotency_key" value="${'K'.repeat(32)}"`);
  });

  it('answers the status of what was refused: the list’s, else the form’s', () => {
    const form = {
      idempotencyKey: 'K'.repeat(32),
      values: {},
      fieldErrors: {},
      problem: { status: 400, message: 'no' },
    };
    const shown = { signedInUserId: user().user_id, invitationDays: 7 };
    expect(usersPage(view(), [user()], form, shown).status).toBe(400);
    const refused = usersPage(view(), [user()], form, {
      ...shown,
      problem: { status: 409, message: 'last' },
    });
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('role="alert">last<');
  });

  it('asks before removing, saying so when it is the signed-in user', () => {
    const own = removeUserPage(view(), user(), true);
    expect(own.html).toContain(teamWords.en.removeSelf);
    expect(own.html).toContain(`action="https://pay.example.com/dashboard/users/${user().user_id}/remove"`);
    const page = removeUserPage(view('es'), other, false);
    expect(page.html).not.toContain(teamWords.es.removeSelf);
    expect(page.html).not.toContain('<script>');
  });
});

describe('the audit log', () => {
  const entry = (at: string, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
    developer_id: 1,
    id: 'abcdefghijkl',
    at,
    actor_id: user().user_id,
    actor_email: hostile,
    action: 'refund.create',
    record: 'ch_1',
    mode: 'live',
    address: '127.0.0.1',
    ...overrides,
  });

  it.each(langs)('shows each entry, says it is read-only, and offers no form of its own, in %s', (lang) => {
    const page = auditLogPage(view(lang, 'audit'), {
      entries: [entry('2026-11-22T10:15:03.000Z'), entry('2026-11-22T10:15:02.000Z', { record: undefined })],
      next: '2026-11-22T10:15:02.000Z#abcdefghijkl',
    });
    expect(page.status).toBe(200);
    expect(page.html).toContain(teamWords[lang].auditReadOnly);
    expect(page.html).not.toContain('<script>');
    const [table] = expectLabelledTables(page.html, 1);
    expect(table?.rows[0]?.[0]?.html).toContain('2026-11-22 10:15:03');
    expect(table?.rows[0]?.[4]?.html).toBe(teamWords[lang].modes.live);
    expect(page.html).toContain(
      'href="https://pay.example.com/dashboard/audit?before=2026-11-22T10%3A15%3A02.000Z%23abcdefghijkl" rel="next"',
    );
    expect(page.html).not.toContain(teamWords[lang].newestEntries);
    // Only the bar's forms (the language switch, sign-out): none acts on the log.
    expect(page.html).not.toMatch(/<form[^>]*action="[^"]*\/audit/);
  });

  it('past the first page links back to the newest; an empty page says so', () => {
    const page = auditLogPage(view('en', 'audit'), {
      entries: [],
      before: '2026-11-22T10:15:02.000Z#abcdefghijkl',
    });
    expect(page.html).toContain(teamWords.en.noOlderEntries);
    expect(page.html).toContain(
      `<a href="https://pay.example.com/dashboard/audit">${teamWords.en.newestEntries}</a>`,
    );
    expect(page.html).not.toContain('rel="next"');
    expect(auditLogPage(view('en', 'audit'), { entries: [] }).html).toContain(teamWords.en.noEntries);
  });
});

describe('the connectors page', () => {
  const connections: ConnectionRow[] = [
    {
      mode: 'test',
      connector: 'simulated',
      stripe_account: null,
      stripe_account_name: null,
      key: null,
      connected_at: null,
    },
    {
      mode: 'live',
      connector: 'stripe',
      stripe_account: 'acct_1',
      stripe_account_name: hostile,
      key: 'sk_live_…4242',
      connected_at: '2026-11-22T10:15:00.000Z',
    },
  ];

  it.each(langs)(
    'shows each mode, a key only as its hint, and secret fields never filled in, in %s',
    (lang) => {
      const page = connectorsPage(view(lang, 'connectors'), connections, {
        formKeys: { test: 'T'.repeat(32), live: 'L'.repeat(32) },
        eventsUrl: 'https://pay.example.com/v1/connectors/stripe/1/events/',
      });
      expect(page.status).toBe(200);
      expect(page.html).not.toContain('<script>');
      const [table] = expectLabelledTables(page.html, 1);
      expect(table?.rows.map((row) => row[0]?.html)).toEqual([
        teamWords[lang].modes.test,
        teamWords[lang].modes.live,
      ]);
      expect(page.html).toContain('<code>sk_live_…4242</code>');
      for (const mode of ['test', 'live']) {
        expect(page.html).toContain(`action="https://pay.example.com/dashboard/connectors/${mode}"`);
        for (const name of ['stripe_key', 'stripe_webhook_secret']) {
          const input = new RegExp(`<input id="${name}_${mode}"[^>]*>`).exec(page.html)?.[0] ?? '';
          expect(input).toContain('type="password"');
          expect(input).toContain('autocomplete="off"');
          expect(input).not.toContain('value=');
        }
      }
      expect(page.html).toContain(`name="idempotency_key" value="${'L'.repeat(32)}"`);
      // Live is on Stripe: it may be disconnected; test is on the simulated acquirer already.
      expect(page.html).toContain('href="https://pay.example.com/dashboard/connectors/live/disconnect"');
      expect(page.html).not.toContain('href="https://pay.example.com/dashboard/connectors/test/disconnect"');
    },
  );

  it('offers a disconnect only where there is something to disconnect', () => {
    const row = (mode: 'test' | 'live', connector: ConnectionRow['connector']) => ({
      ...(connections[0] as ConnectionRow),
      mode,
      connector,
    });
    expect(disconnectable(row('live', 'simulated'))).toBe(true);
    expect(disconnectable(row('live', 'stripe'))).toBe(true);
    expect(disconnectable(row('live', 'none'))).toBe(false);
    expect(disconnectable(row('test', 'stripe'))).toBe(true);
    expect(disconnectable(row('test', 'simulated'))).toBe(false);
    const page = disconnectPage(view('es', 'connectors'), 'live');
    expect(page.html).toContain(teamWords.es.disconnectWhat.live);
    expect(page.html).toContain('action="https://pay.example.com/dashboard/connectors/live/disconnect"');
  });
});
