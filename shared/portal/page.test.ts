import { describe, expect, it } from 'vitest';
import type { Charge } from '../charges/charge.ts';
import type { Customer } from '../customers/customer.ts';
import type { Subscription } from '../subscriptions/subscription.ts';
import { closedPortalPage, portalPage } from './page.ts';
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
    expect(page.html).toContain('10.50 USD × 2 / month');
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
    expect(page.html).toContain('10.50 USD × 2 / mes');
    expect(closedPortalPage('expired', 'es').html).toContain('Enlace caducado');
    expect(closedPortalPage('expired', 'es').status).toBe(410);
    expect(closedPortalPage('unknown', 'en').status).toBe(404);
  });
});
