/**
 * The e-mails: written in the account's language with a text and an HTML part, and sent once per
 * event and recipient however many times the event is delivered. Against the local stack's table
 * and SES emulator; the consumers are called directly to deliver one event several times.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { EventBridgeEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeyRotated } from '../../shared/accounts/events.ts';
import { type AccountProfile, updateProfile } from '../../shared/accounts/repository.ts';
import { displayDateTime, displayPeriod } from '../../shared/core/display.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { eventSource } from '../../shared/events/event.ts';
import { mailKeys } from '../../shared/mail/keys.ts';
import { mailSentRetentionDays, recipientHash, sendOnce } from '../../shared/mail/once.ts';
import type { Mail, Mailer } from '../../shared/mail/send.ts';
import { planDeleted } from '../../shared/plans/events.ts';
import { payThroughCheckout, submitCard } from '../support/checkout.ts';
import { sentMail, waitForMail } from '../support/mail.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import {
  api,
  apiKey,
  apiUrl,
  basic,
  localInfo,
  newAccount,
  type TestAccount,
  useLocalEnvironment,
} from '../support/stack.ts';
import { storedEventItems } from '../support/table.ts';

type Handler<T extends string> = (event: EventBridgeEvent<T, unknown>) => Promise<void>;

let keyRotatedHandler: Handler<'api_key.rotated'>;
let planDeletedHandler: Handler<'plan.deleted'>;
let refundHandler: Handler<'refund.created'>;

beforeAll(async () => {
  // The consumers build their clients at import: the environment must point at the stack first.
  useLocalEnvironment();
  ({ handler: keyRotatedHandler } = await import('../../functions/notifications/send-key-rotated-email.ts'));
  ({ handler: planDeletedHandler } = await import('../../functions/plans/notify-plan-deleted.ts'));
  ({ handler: refundHandler } = await import('../../functions/refunds/send-refund-email.ts'));
});

/** The profile `accounts update` sets, `language` (of the account's e-mails) included. */
async function setProfile(account: TestAccount, profile: AccountProfile & { language?: string }) {
  await updateProfile(makeDeps(), account.developerId, profile);
}

/** An event's detail as EventBridge hands it to a target; each delivery has its own envelope id. */
function delivery<T extends string>(type: T, detail: { type: string }): EventBridgeEvent<T, unknown> {
  expect(detail.type).toBe(type);
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': type,
    source: eventSource,
    account: '000000000000',
    time: new Date().toISOString(),
    region: 'us-east-1',
    resources: [],
    detail,
  };
}

/** How many e-mails the SES emulator took for `to` with `subject`. */
async function countMail(to: string, subject: string): Promise<number> {
  return (await sentMail()).filter((mail) => mail.destination.to.includes(to) && mail.subject === subject)
    .length;
}

describe("e-mails in the account's language", () => {
  it('a Spanish account that rotates a key gets the notice in Spanish, text and HTML, with its brand', async () => {
    const account = await newAccount('mail-es');
    await setProfile(account, {
      company_name: 'Panadería <Sol> & Hijos',
      logo: 'https://sol.example/logo.png',
      language: 'es',
    });
    expect(
      (await api('PATCH', '/v1/auth/api-keys/', { auth: apiKey(account.liveKey), body: { type: 'live' } }))
        .status,
    ).toBe(200);
    const mail = await waitForMail(account.email, 'Se rotó la clave API de producción de tu cuenta de cobro');
    expect(mail).toBeDefined();
    expect(mail?.body.text).toContain('Hola Test mail-es:');
    expect(mail?.body.text).toContain(`tu cuenta de cobro ${account.developerId}`);
    expect(mail?.body.text).toContain('La nueva clave termina en');
    expect(mail?.body.text).not.toContain('Hello');
    expect(mail?.body.text).not.toMatch(/sk_live_[A-Za-z0-9]{32}/);
    const html = mail?.body.html ?? '';
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('Panadería &lt;Sol&gt; &amp; Hijos');
    expect(html).not.toContain('<Sol>');
    expect(html).toContain('<img src="https://sol.example/logo.png" alt="Panadería &lt;Sol&gt; &amp; Hijos"');
    expect(html).toContain(`tu cuenta de cobro ${account.developerId}`);
  });

  it('an account without a language gets English, also with both parts', async () => {
    const account = await newAccount('mail-en');
    expect(
      (await api('PATCH', '/v1/auth/api-keys/', { auth: apiKey(account.liveKey), body: { type: 'test' } }))
        .status,
    ).toBe(200);
    const mail = await waitForMail(account.email, 'Your cobro test API key was rotated');
    expect(mail?.body.text).toContain('Hello Test mail-en,');
    expect(mail?.body.html).toContain('<html lang="en">');
    // No company name set: the account's name heads the e-mail, and there is no logo.
    expect(mail?.body.html).toContain('Test mail-en');
    expect(mail?.body.html).not.toContain('<img');
  });
});

describe('one e-mail per event and recipient', () => {
  it('api_key.rotated delivered several times, at once and later, sends one e-mail', async () => {
    const account = await newAccount('mail-once-key');
    const now = new Date();
    const event = apiKeyRotated.of(
      { developerId: account.developerId, mode: 'test' },
      { type: 'test', key: 'sk_test_****************************wXyZ', created_at: now.toISOString() },
      now,
    );
    const subject = 'Your cobro test API key was rotated';
    await Promise.all([
      keyRotatedHandler(delivery('api_key.rotated', event)),
      keyRotatedHandler(delivery('api_key.rotated', event)),
    ]);
    await keyRotatedHandler(delivery('api_key.rotated', event));
    expect(await countMail(account.email, subject)).toBe(1);
    const [mail] = (await sentMail()).filter((sent) => sent.destination.to.includes(account.email));
    expect(mail?.body.text).toContain('ends in wXyZ');

    // Another event of the same kind is another e-mail.
    const next = apiKeyRotated.of(
      { developerId: account.developerId, mode: 'test' },
      { type: 'test', key: 'sk_test_****************************aBcD', created_at: now.toISOString() },
      now,
    );
    await keyRotatedHandler(delivery('api_key.rotated', next));
    expect(await countMail(account.email, subject)).toBe(2);
  });

  it('plan.deleted delivered several times sends one e-mail, in the account language', async () => {
    const account = await newAccount('mail-once-plan');
    await setProfile(account, { company_name: 'Sol', language: 'es' });
    const name = `Gone ${randomUUID().slice(0, 8)}`;
    const now = new Date();
    const planId = randomUUID();
    const event = planDeleted.of(
      { developerId: account.developerId, mode: 'live' },
      {
        object: {
          key: planId,
          information: {
            name,
            created: now.toISOString(),
            interval: 'month',
            interval_count: 3,
            currency: 'MXN',
            amount: '149.50',
            trial_period_days: 0,
            credit_card_description: 'SOL',
            description: '',
            email: account.email,
            company_name: 'Sol',
            page: null,
            active: true,
            count: 2,
            image: null,
            image_dev: 'javascript:alert(1)',
          },
          test: false,
        },
        account: {
          developer_id: account.developerId,
          name: 'Test mail-once-plan',
          email: account.email,
          company_name: 'Sol',
        },
      },
      now,
    );
    const subject = `Se eliminó tu plan "${name}" de cobro`;
    await Promise.all([
      planDeletedHandler(delivery('plan.deleted', event)),
      planDeletedHandler(delivery('plan.deleted', event)),
    ]);
    await planDeletedHandler(delivery('plan.deleted', event));
    expect(await countMail(account.email, subject)).toBe(1);
    const [mail] = (await sentMail()).filter(
      (sent) => sent.destination.to.includes(account.email) && sent.subject === subject,
    );
    expect(mail?.body.text).toContain(`El plan de producción "${name}" (${planId}), 149,50 MXN cada 3 meses`);
    expect(mail?.body.text).toContain('Sus 2 suscripciones activas quedan canceladas');
    expect(mail?.body.html).toContain('<html lang="es">');
    expect(mail?.body.html).not.toContain('<img');
    expect(mail?.body.html).not.toContain('javascript:');
  });

  it('a send that fails leaves no marker, so the retry sends; the marker keeps no address', async () => {
    useLocalEnvironment();
    const deps = makeDeps();
    const to = `Retry-${randomUUID()}@Example.com`;
    const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
    const sent: Mail[] = [];
    let failures = 1;
    const flaky: Mailer = {
      async send(mail) {
        if (failures-- > 0) throw new Error('SES throttled');
        sent.push(mail);
        return `msg-${sent.length}`;
      },
    };
    const mail = { subject: 'Once', text: 'text', html: '<p>html</p>' };
    const markerKey = mailKeys.sent(eventId, recipientHash(to));
    const marker = async () =>
      (await deps.db.send(new GetCommand({ TableName: deps.table, Key: markerKey, ConsistentRead: true })))
        .Item;

    await expect(sendOnce(deps, flaky, { eventId, to, mail })).rejects.toThrow('SES throttled');
    expect(await marker()).toBeUndefined();

    expect(await sendOnce(deps, flaky, { eventId, to, mail, owner: { developerId: 7, mode: 'live' } })).toBe(
      'msg-1',
    );
    expect(sent).toEqual([{ ...mail, to }]);
    const stored = await marker();
    expect(stored).toMatchObject({ entity: 'mail_sent', event_id: eventId, developer_id: 7, mode: 'live' });
    expect(JSON.stringify(stored).toLowerCase()).not.toContain(to.toLowerCase());
    const ttl = Number(stored?.expires_at) - Date.now() / 1000;
    expect(Math.abs(ttl - mailSentRetentionDays * 86_400)).toBeLessThan(120);

    // The same recipient spelled differently is the same recipient.
    expect(await sendOnce(deps, flaky, { eventId, to: ` ${to.toLowerCase()} `, mail })).toBeUndefined();
    expect(sent).toHaveLength(1);
  });
});

describe('the activation e-mail', () => {
  it('says what was bought and how many, the price per interval, and links a portal that opens, valid 7 days', async () => {
    const account = await newAccount('mail-activation');
    await setProfile(account, { company_name: 'Tienda <Sol> & Co', language: 'es' });
    const auth = apiKey(account.testKey);
    const email = `subscriber-${randomUUID()}@example.com`;
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Plata', amount: '9.90', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    const created = await api('POST', '/v1/subscriptions', {
      auth,
      body: { plan_id: plan.json.data.id, quantity: 2, return_url: 'https://shop.example/welcome' },
    });
    expect(created.status, created.text).toBe(201);
    const before = Date.now();
    expect((await submitCard(created.json.data.checkout_url as string, { email })).status).toBe(303);

    const mail = await waitForMail(email, 'Tienda <Sol> & Co: tu suscripción a "Plata" está activa');
    expect(mail, 'the activation e-mail').toBeDefined();
    const after = Date.now();
    const text = mail?.body.text ?? '';
    expect(text).toContain('Plan: Plata × 2');
    expect(text).toContain('Precio: 9,90 USD × 2 = 19,80 USD / mes');
    expect(text).not.toContain('contacta a');
    // A portal link made when the e-mail was sent, open 7 days, and the e-mail says until when.
    const portal = /^(\S+\/portal\/[A-Za-z0-9]{43})$/m.exec(text)?.[1] ?? '';
    expect(portal.startsWith(`${apiUrl}/portal/`), text).toBe(true);
    expect(mail?.body.html).toContain(`<a href="${portal}"`);
    const week = 7 * 86_400_000;
    const until = [before, after].map((at) => displayDateTime(new Date(at + week).toISOString(), 'es'));
    expect(
      until.some((when) =>
        text.includes(`Este enlace funciona hasta el ${when}; después, pide uno nuevo a Tienda <Sol> & Co.`),
      ),
      text,
    ).toBe(true);
    const page = await fetch(portal, { headers: { 'Accept-Language': 'es' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Plata');

    // The first charge's receipt says the same, and the period it pays for: the first one.
    const id = created.json.data.subscription_id as string;
    const view = (await api('GET', `/v1/subscriptions/${id}`, { auth })).json;
    const receipt = await waitForMail(email, 'Tienda <Sol> & Co: tu recibo de "Plata"');
    expect(receipt, 'the receipt').toBeDefined();
    for (const line of [
      'Importe: 19,80 USD',
      'Concepto: Plata × 2',
      'Precio: 9,90 USD × 2 = 19,80 USD / mes',
      `Periodo: ${displayPeriod(view.current_period_start, view.current_period_end, 'es')}`,
      'Tarjeta: Visa •••• 4242',
    ]) {
      expect(receipt?.body.text).toContain(line);
    }
  });
});

describe('the refund notice', () => {
  /** POST /v1/refunds/ of `amount` (all that remains when absent); answers the refund's id. */
  async function refund(auth: string, chargeId: string, amount?: string): Promise<string> {
    const created = await api('POST', '/v1/refunds/', {
      auth,
      body: { charge_id: chargeId, reason: 'requested_by_customer', ...(amount ? { amount } : {}) },
    });
    expect(created.status, created.text).toBe(201);
    return created.json.id as string;
  }

  it("a refund e-mails the payer once, in the account's language, however often its event comes", async () => {
    const account = await newAccount('mail-refund');
    await setProfile(account, { company_name: 'Tienda <Sol> & Co', language: 'es' });
    const auth = apiKey(account.testKey);
    const email = `payer-${randomUUID()}@example.com`;
    const paid = await payThroughCheckout(auth, { card: { email } });
    const refundId = await refund(auth, paid.chargeId, '4.00');

    const subject = 'Tienda <Sol> & Co: reembolso de 4,00 USD';
    const mail = await waitForMail(email, subject);
    expect(mail, 'the refund notice').toBeDefined();
    expect(mail?.body.text).toContain('Tienda <Sol> & Co te reembolsó 4,00 USD a tu tarjeta Visa •••• 4242');
    expect(mail?.body.text).toContain('Reembolsa una parte de tu pago de 10,00 USD');
    expect(mail?.body.text).toContain(`Referencia del pago: ${paid.chargeId}`);
    expect(mail?.body.text).toContain(`Referencia del reembolso: re_${refundId}`);
    expect(mail?.body.text).toContain('Concepto: Order 1001');
    expect(mail?.body.html).toContain('<html lang="es">');
    expect(mail?.body.html).toContain('Tienda &lt;Sol&gt; &amp; Co');
    expect(mail?.body.html).not.toContain('<Sol>');

    // The same event delivered again, twice at once: still one notice.
    const [stored] = (await storedEventItems(account.developerId, 'test'))
      .map((item) => item.detail)
      .filter((detail) => detail.type === 'refund.created');
    expect(stored?.data.object.id).toBe(refundId);
    await Promise.all([
      refundHandler(delivery('refund.created', stored)),
      refundHandler(delivery('refund.created', stored)),
    ]);
    await pipelineDrained(localInfo, account.developerId);
    expect(await countMail(email, subject)).toBe(1);

    // Refunding the rest is another refund: another notice, for what it refunded.
    await refund(auth, paid.chargeId);
    expect(await waitForMail(email, 'Tienda <Sol> & Co: reembolso de 6,00 USD')).toBeDefined();
    await pipelineDrained(localInfo, account.developerId);
    // The payer's mail: the charge's receipt and one notice per refund, nothing more.
    const payerMail = (await sentMail()).filter((sent) => sent.destination.to.includes(email));
    expect(payerMail.map((sent) => sent.subject).sort()).toEqual([
      'Tienda <Sol> & Co: reembolso de 4,00 USD',
      'Tienda <Sol> & Co: reembolso de 6,00 USD',
      expect.stringContaining('tu recibo'),
    ]);
  });

  it('a refund of a charge with no e-mail (a legacy charge) sends nothing', async () => {
    const account = await newAccount('mail-refund-legacy');
    const charged = await api('POST', '/v1/charges/simple/create/', {
      auth: basic(account.testKey),
      rawBody: new URLSearchParams({
        amount: '10.00',
        currency: 'usd',
        description: 'Legacy order',
        entity_description: 'Shop',
        credit_card_number: '4242424242424242',
        credit_card_security_code_number: '123',
        exp_month: '12',
        exp_year: String(new Date().getUTCFullYear() + 3),
      }).toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(charged.status, charged.text).toBe(201);
    await refund(apiKey(account.testKey), charged.json.id as string);
    // Every event of the account, the refund's included, has reached its targets.
    await pipelineDrained(localInfo, account.developerId);
    const refunded = (await storedEventItems(account.developerId, 'test'))
      .map((item) => item.detail)
      .find((detail) => detail.type === 'refund.created');
    expect(refunded?.data.object.charge_id).toBe(charged.json.id);
    // Its consumer finds the charge and no address on it: it answers, sending nothing.
    await expect(refundHandler(delivery('refund.created', refunded))).resolves.toBeUndefined();
    expect((await sentMail()).filter((sent) => sent.subject.startsWith('Test mail-refund-legacy'))).toEqual(
      [],
    );
  });
});
