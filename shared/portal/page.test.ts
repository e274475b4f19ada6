import { describe, expect, it } from 'vitest';
import type { Charge } from '../charges/charge.ts';
import type { Customer } from '../customers/customer.ts';
import type { Subscription } from '../subscriptions/subscription.ts';
import { cancelConfirmationPage, closedPortalPage, portalPage } from './page.ts';
import type { PortalLink } from './repository.ts';
import type { PortalContents } from './service.ts';

const hostile = '<script>alert("x")</script>';

const link: PortalLink = {
  token_hash: 'h',
  developer_id: 1,
  mode: 'test',
  customer_id: 'c1',
  csrf: 'C'.repeat(32),
  expires_at_ms: 0,
  expires_at: 0,
  created_at: '2026-11-26T00:00:00.000Z',
  updated_at: '2026-11-26T00:00:00.000Z',
};

const subscription = (status: Subscription['status']): Subscription => ({
  id: `sub_${status}`,
  developer_id: 1,
  mode: 'test',
  plan_id: 'p1',
  plan: { name: hostile, amount: 1050, currency: 'USD', interval: 'month', interval_count: 1 },
  quantity: 2,
  customer_id: 'c1',
  status,
  active: status !== 'canceled',
  statement_descriptor: 'X',
  card_token: 't',
  anchor: '2026-10-26T00:00:00.000Z',
  trial_end: null,
  paid_through: 0,
  failed_attempts: 0,
  failed_at: null,
  next_action_at: null,
  version: 1,
  created_at: '2026-10-26T00:00:00.000Z',
  updated_at: '2026-10-26T00:00:00.000Z',
  canceled_at: null,
});

const contents = (subscriptions: Subscription[]): PortalContents => ({
  link,
  simulatedLive: false,
  merchant: hostile,
  customer: { first_name: hostile } as Customer,
  subscriptions,
  charges: [
    {
      id: 'ch_1',
      amount: 2100,
      currency: 'USD',
      description: hostile,
      refunded: 0,
      card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, country: 'US' },
      created_at: '2026-10-26T00:00:00.000Z',
    } as Charge,
  ],
});

describe('the portal page', () => {
  it('escapes every value, and carries the CSRF token in every form', () => {
    const page = portalPage(contents([subscription('active')]), { action: '/portal/t', lang: 'en' });
    expect(page.html).not.toContain('<script');
    expect(page.html).toContain('&lt;script&gt;');
    const forms = page.html.match(/<form /g) ?? [];
    const tokens = page.html.match(/name="csrf_token" value="C{32}"/g) ?? [];
    expect(forms.length).toBe(3); // replace card, cancel, the charge's receipt
    expect(tokens.length).toBe(forms.length);
    expect(page.headers['X-Frame-Options']).toBe('DENY');
    expect(page.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(page.html).toContain('10.50 USD × 2 = 21.00 USD / month');
  });

  it('says what each period charges in all: unit price × quantity = total, per interval', () => {
    const every = (interval: 'month' | 'year', count: number, lang: 'en' | 'es' = 'en') => {
      const base = subscription('active');
      const plan = { ...base.plan, name: 'Silver', amount: 990, interval, interval_count: count };
      return portalPage(contents([{ ...base, plan }]), { action: '/portal/t', lang }).html;
    };
    expect(every('month', 1)).toContain('9.90 USD × 2 = 19.80 USD / month');
    expect(every('month', 3)).toContain('9.90 USD × 2 = 19.80 USD every 3 months');
    expect(every('year', 1)).toContain('9.90 USD × 2 = 19.80 USD / year');
    expect(every('month', 3, 'es')).toContain('9,90 USD × 2 = 19,80 USD cada 3 meses');
    expect(every('year', 1, 'es')).toContain('9,90 USD × 2 = 19,80 USD / año');
    const one = portalPage(contents([{ ...subscription('active'), quantity: 1 }]), {
      action: '/portal/t',
      lang: 'en',
    });
    expect(one.html).toContain('10.50 USD / month');
    expect(one.html).not.toContain('×');
  });

  it('says what a past-due subscription owes, since when and its next attempt; replacing the card comes first', () => {
    // Period 1 (from 2026-11-26) unpaid; its renewal failed then, retried on 2026-11-27.
    const overdue: Subscription = {
      ...subscription('past_due'),
      paid_through: 0,
      failed_attempts: 1,
      failed_at: '2026-11-26T00:00:00.000Z',
      next_action_at: '2026-11-27T00:00:00.000Z',
    };
    const en = portalPage(contents([overdue]), { action: '/portal/t', lang: 'en' }).html;
    expect(en).toContain('Payment failed: 21.00 USD due since 26 Nov 2026; next attempt 27 Nov 2026.');
    expect(en).toContain('the 21.00 USD due is charged to the new card right away');
    expect(en.indexOf('value="card"')).toBeLessThan(en.indexOf('value="cancel"'));
    expect(en).not.toContain('Next billing date');
    const es = portalPage(contents([overdue]), { action: '/portal/t', lang: 'es' }).html;
    expect(es).toContain(
      'Pago fallido: 21,00 USD pendiente desde el 26 nov 2026; próximo intento el 27 nov 2026.',
    );
    expect(es).toContain('los 21,00 USD pendientes se cobran a la nueva tarjeta de inmediato');
    // An active one says none of it.
    const active = portalPage(contents([subscription('active')]), { action: '/portal/t', lang: 'en' }).html;
    expect(active).not.toContain('Payment failed');
    expect(active).toContain('Next billing date');
  });

  it("asks to confirm a cancel, saying it ends now, with the confirmation's own token", () => {
    const silver = { ...subscription('active'), plan: { ...subscription('active').plan, name: 'Silver' } };
    const context = { action: '/portal/t', lang: 'en', mode: 'test' } as const;
    const en = cancelConfirmationPage(silver, context, 'D'.repeat(32));
    expect(en.status).toBe(200);
    expect(en.html).toContain('Cancel Silver × 2?');
    expect(en.html).toContain('It ends now');
    expect(en.html).toContain('you will not be charged for it again');
    expect(en.html).toContain('name="csrf_token" value="DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD"');
    expect(en.html).toContain('value="confirm_cancel"');
    expect(en.html).toContain('>Yes, cancel</button>');
    expect(en.html).toContain('<a href="/portal/t">Keep it</a>');
    expect(en.html).not.toContain('C'.repeat(32));
    const es = cancelConfirmationPage(silver, { ...context, lang: 'es' }, 'D'.repeat(32));
    expect(es.html).toContain('¿Cancelar Silver × 2?');
    expect(es.html).toContain('Termina ahora');
    expect(es.html).toContain('>Sí, cancelar</button>');
    expect(es.html).toContain('>Conservarla</a>');
    const overdue = cancelConfirmationPage(
      { ...silver, status: 'past_due', paid_through: 0 },
      context,
      'D'.repeat(32),
    );
    expect(overdue.html).toContain('the 21.00 USD due is not charged');
    const hostileName = cancelConfirmationPage(subscription('active'), context, 'D'.repeat(32));
    expect(hostileName.html).not.toContain('<script');
  });

  it('puts a past-due subscription first, names each with its quantity and shows the card it is charged to', () => {
    const named = (status: Subscription['status'], name: string): Subscription => ({
      ...subscription(status),
      plan: { ...subscription(status).plan, name },
    });
    const gold = { ...named('active', 'Gold'), quantity: 1, card: { brand: 'mastercard', last4: '4444' } };
    const silver = named('past_due', 'Silver');
    const page = portalPage(contents([gold, silver]), { action: '/portal/t', lang: 'en' });
    const headings = [...page.html.matchAll(/<h2>([^<]*)<\/h2>/g)].map((match) => match[1]);
    expect(headings).toEqual(['Your subscriptions', 'Silver × 2', 'Gold', 'Your payments']);
    // The first Replace card on the page is the past-due one's.
    const firstCard =
      /name="subscription_id" value="([^"]+)">\n<button type="submit" name="action" value="card"/.exec(
        page.html,
      );
    expect(firstCard?.[1]).toBe(silver.id);
    expect(page.html).toContain('<dt>Card</dt><dd>Mastercard •••• 4444</dd>');
    expect(page.html.match(/<dt>Card<\/dt>/g)).toHaveLength(1);
  });

  it('says a trial canceled ends with its trial, without speaking of money paid', () => {
    const context = { action: '/portal/t', lang: 'en', mode: 'test' } as const;
    const trial = cancelConfirmationPage(subscription('trialing'), context, 'D'.repeat(32));
    expect(trial.html).toContain('It ends now, with its trial: you will not be charged for it.');
    expect(trial.html).not.toContain('already paid');
    const es = cancelConfirmationPage(subscription('trialing'), { ...context, lang: 'es' }, 'D'.repeat(32));
    expect(es.html).toContain('junto con su periodo de prueba');
  });

  it('offers no action on a canceled subscription', () => {
    const page = portalPage(contents([subscription('canceled')]), { action: '/portal/t', lang: 'en' });
    expect(page.html).not.toContain('value="cancel"');
    expect(page.html).not.toContain('value="card"');
  });

  it('speaks Spanish to a Spanish reader', () => {
    const page = portalPage(contents([subscription('past_due')]), { action: '/portal/t', lang: 'es' });
    expect(page.html).toContain('<html lang="es">');
    expect(page.html).toContain('Pago vencido');
    expect(page.html).toContain('Cambiar tarjeta');
    expect(page.html).toContain('10,50 USD × 2 = 21,00 USD / mes');
    expect(closedPortalPage('expired', 'es').html).toContain('Enlace caducado');
    expect(closedPortalPage('expired', 'es').status).toBe(410);
    expect(closedPortalPage('unknown', 'en').status).toBe(404);
  });
});
