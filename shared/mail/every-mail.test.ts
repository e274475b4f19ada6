/**
 * Every e-mail cobro sends, each area's (`shared/<area>/mail.ts`, found on disk, so a new one fails
 * here until it has a sample), rendered through the layout: a subject on one line, a text part
 * without markup and an HTML part, in each language; a hostile value in every free-text field and
 * in the merchant's name escaped in the HTML part; links only to cobro's own pages; the logo only
 * from an http(s) address. What each e-mail says is tested beside it (shared/<area>/mail.test.ts).
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Lang, langs } from '../core/messages.ts';
import type { MailContext, RenderedMail } from './layout.ts';
import type { MailItem } from './words.ts';

const hostile = '<script>alert("x")</script>';
/** `hostile` as the HTML part must show it: every one of `&<>"'` escaped. */
const escapedHostile = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;';

/** A subscription of 2 "Silver" at 9.90 USD a month. */
const silver: MailItem = {
  name: 'Silver',
  quantity: 2,
  unitAmount: '9.90',
  currency: 'USD',
  interval: 'month',
  intervalCount: 1,
};
const activationPortalUrl = 'https://pay.example/portal/Act1vat10nT0ken';
const renewalPortalUrl = 'https://pay.example/portal/abcDEF123';
const receiptUrl = 'https://pay.example/receipts/Zk3q9XbT0aLmP2sV8cYw1RfN6uJd4HgE7oQiKtBnWy5';
const invitationUrl = 'https://pay.example/dashboard/access/Inv1tat10nT0kenAbCdEfGhIjKlMnOpQrStUvWxYz012';

// biome-ignore lint/suspicious/noExplicitAny: each e-mail takes fields of its own; a sample gives them
type AnyMail = (input: any) => RenderedMail;

interface Sample {
  /** The e-mail with fields for it; `value` fills every free-text field (a name, a plan name). */
  render: (value: string, context: MailContext) => RenderedMail;
  /** The links it carries in its body (the logo is an image, not a link). */
  links: string[];
}

/** Each e-mail by `<area>/<export>`, with its fields. */
const samples: Record<string, (mail: AnyMail) => Sample> = {
  'accounts/apiKeyRotatedMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        ownerName: value,
        developerId: 42,
        keyType: 'live',
        keyEnding: 'a1B2',
        rotatedAt: '2026-11-22T10:15:00.000Z',
      }),
    links: [],
  }),
  'plans/planDeletedMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        ownerName: value,
        mode: 'live',
        plan: {
          id: 'd3b07384-d9a0-4c9b-8f3e-1a2b3c4d5e6f',
          name: value,
          amount: '1200',
          currency: 'JPY',
          interval: 'month',
          intervalCount: 1,
        },
        activeSubscriptions: 3,
        deletedAt: '2026-11-22T10:15:00.000Z',
      }),
    links: [],
  }),
  'subscriptions/planDiscontinuedMail': (mail) => ({
    render: (value, context) =>
      mail({ ...context, customerName: value, planName: value, canceledAt: '2026-11-22T10:15:00.000Z' }),
    links: [],
  }),
  'subscriptions/subscriptionActivatedMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        customerName: value,
        subscriptionId: 'sub_123',
        item: { ...silver, name: value },
        nextBillingAt: '2026-12-22T00:00:00.000Z',
        trialEndsAt: '2026-12-06T00:00:00.000Z',
        portalUrl: activationPortalUrl,
        linkExpiresAt: '2026-11-29T10:15:00.000Z',
      }),
    links: [activationPortalUrl],
  }),
  'subscriptions/subscriptionCanceledMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        customerName: value,
        subscriptionId: 'sub_123',
        planName: value,
        canceledAt: '2026-11-22T10:15:00.000Z',
        reason: 'requested',
      }),
    links: [],
  }),
  'subscriptions/subscriptionChangedMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        customerName: value,
        subscriptionId: 'sub_123',
        item: { ...silver, name: value },
        charge: { amount: '6.45', currency: 'USD' },
        nextBillingAt: '2026-12-22',
      }),
    links: [],
  }),
  'subscriptions/subscriptionEndingMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        customerName: value,
        subscriptionId: 'sub_123',
        planName: value,
        endsAt: '2026-12-22T10:15:00.000Z',
      }),
    links: [],
  }),
  'subscriptions/subscriptionResumedMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        customerName: value,
        subscriptionId: 'sub_123',
        planName: value,
        formerEnd: '2026-12-22T10:15:00.000Z',
        nextBillingAt: '2026-12-22',
      }),
    links: [],
  }),
  'portal/renewalFailedMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        customerName: value,
        planName: value,
        amount: '21.00',
        currency: 'USD',
        nextRetryAt: '2026-11-23T10:15:00.000Z',
        portalUrl: renewalPortalUrl,
        linkExpiresAt: '2026-11-29T10:15:00.000Z',
      }),
    links: [renewalPortalUrl],
  }),
  'refunds/refundIssuedMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        customerName: value,
        amount: '4.50',
        currency: 'USD',
        chargeId: 'ch_0123456789abcdefghijklmn',
        chargeAmount: '10.00',
        chargeDescription: value,
        chargedAt: '2026-11-20T09:00:00.000Z',
        card: { brand: 'visa', last4: '4242' },
        refundId: 're_abcdefghijklmnopqrstuvwx',
        refundedAt: '2026-11-22T10:15:00.000Z',
      }),
    links: [],
  }),
  'team/invitationMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        inviterEmail: value,
        role: 'support',
        url: invitationUrl,
        expiresAt: '2026-11-29T10:15:00.000Z',
      }),
    links: [invitationUrl],
  }),
  'receipts/receiptMail': (mail) => ({
    render: (value, context) =>
      mail({
        ...context,
        customerName: value,
        receipt: {
          reference: 'ch_4fR9kq2LmN8pXz7VbT1cYw3e',
          amount: '19.99',
          currency: 'USD',
          description: value,
          item: { ...silver, name: value },
          period: { start: '2026-11-22T10:15:00.000Z', end: '2026-12-22T10:15:00.000Z' },
          paidAt: '2026-11-22T10:15:00.000Z',
          cardBrand: 'visa',
          cardLast4: '4242',
          receiptUrl,
        },
      }),
    links: [receiptUrl],
  }),
};

/** Every function each area's mail.ts exports, by `<area>/<export>`. */
const shared = resolve(import.meta.dirname, '..');
const areaMails = new Map<string, AnyMail>();
for (const area of readdirSync(shared, { withFileTypes: true })) {
  if (!area.isDirectory() || !readdirSync(join(shared, area.name)).includes('mail.ts')) continue;
  const module = (await import(join(shared, area.name, 'mail.ts'))) as Record<string, unknown>;
  for (const [name, value] of Object.entries(module))
    if (typeof value === 'function') areaMails.set(`${area.name}/${name}`, value as AnyMail);
}

const merchant = { name: 'Acme Café', logoUrl: 'https://acme.example/logo.png' };

/** Words that only the Spanish copy of every e-mail uses, and only the English one. */
const marker: Record<Lang, RegExp> = { es: /\bHola\b/, en: /\bHello\b/ };

it('every e-mail an area exports has a sample here, and every sample an e-mail', () => {
  expect([...areaMails.keys()].sort()).toEqual(Object.keys(samples).sort());
  expect(areaMails.size).toBeGreaterThanOrEqual(8);
});

describe.each([...areaMails.keys()].filter((name) => name in samples))('%s', (name) => {
  const mail = areaMails.get(name) as AnyMail;
  const { render: renderSample, links } = (samples[name] as (mail: AnyMail) => Sample)(mail);
  const render = (context: MailContext, value = 'Ana') => renderSample(value, context);

  it.each(langs)('has a subject, a text part and an HTML part in %s', (language) => {
    const mail = render({ language, merchant });
    expect(mail.subject.trim()).not.toBe('');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.text.trim()).not.toBe('');
    expect(mail.text).not.toMatch(/<[a-z]/i);
    expect(mail.html).toMatch(/^<!DOCTYPE html>/);
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.html).toContain('Acme Café');
    const other = language === 'es' ? 'en' : 'es';
    for (const part of [mail.text, mail.html]) {
      expect(part).toMatch(marker[language]);
      expect(part).not.toMatch(marker[other]);
    }
  });

  it('writes Spanish and English differently, subject included', () => {
    const en = render({ language: 'en', merchant });
    const es = render({ language: 'es', merchant });
    expect(es.subject).not.toBe(en.subject);
    expect(es.text).not.toBe(en.text);
  });

  it.each(langs)('escapes every interpolated value in the HTML part, in %s', (language) => {
    const mail = render({ language, merchant: { name: hostile, logoUrl: merchant.logoUrl } }, hostile);
    expect(mail.html).not.toContain('<script');
    expect(mail.html).toContain(escapedHostile);
    expect(mail.html).toContain(`alt="${escapedHostile}"`);
    // The text part is not HTML: it shows the value as it is.
    expect(mail.text).toContain(hostile);
  });

  it.each(langs)(
    'links only to its own pages, each a link in HTML and on a line of its own in text, in %s',
    (language) => {
      const mail = render({ language, merchant });
      const hrefs = [...mail.html.matchAll(/<a [^>]*href="([^"]*)"/g)].map((match) => match[1]);
      expect(hrefs).toEqual(links);
      for (const url of links) expect(mail.text.split('\n')).toContain(url);
    },
  );

  it('shows the logo only for an http(s) URL', () => {
    const withLogo = render({ language: 'es', merchant });
    expect(withLogo.html).toContain('<img src="https://acme.example/logo.png" alt="Acme Café"');
    for (const logoUrl of [
      undefined,
      null,
      '',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '/logo.png',
    ]) {
      const mail = render({ language: 'es', merchant: { name: 'Acme', logoUrl } });
      expect(mail.html).not.toContain('<img');
      expect(mail.html).not.toContain('javascript:');
      expect(mail.html).toContain('Acme');
    }
  });
});
