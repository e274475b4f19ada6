/**
 * Receipts against the local stack: every approved charge e-mails its payer one receipt (the SES
 * emulator's store), whose link opens the receipt page and its PDF through the local gateway; a
 * second delivery of the event sends nothing; an unknown token is a 404 page.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { EventBridgeEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { updateProfile } from '../../shared/accounts/repository.ts';
import { getCharge } from '../../shared/charges/repository.ts';
import { displayDate } from '../../shared/core/display.ts';
import { makeDeps } from '../../shared/db/deps.ts';
import { transactWrite } from '../../shared/db/transact.ts';
import { eventSource } from '../../shared/events/event.ts';
import { eventKeys } from '../../shared/events/keys.ts';
import { receiptKeys } from '../../shared/receipts/keys.ts';
import { findReceiptLink } from '../../shared/receipts/repository.ts';
import { receiptBought, stageReceiptKeys } from '../../shared/receipts/service.ts';
import { runBilling } from '../../shared/subscriptions/billing.ts';
import { getSubscription, subscriptionWrites } from '../../shared/subscriptions/repository.ts';
import { simulatedAcquirer } from '../support/acquirer.ts';
import { cardFields, payThroughCheckout, submitCard, testCards } from '../support/checkout.ts';
import { type StoredMail, sentMail } from '../support/mail.ts';
import { pdfContent, renderFirstPage } from '../support/pdf.ts';
import { pipelineDrained } from '../support/pipeline.ts';
import { api, apiUrl, localInfo, type Merchant, newMerchant, useLocalEnvironment } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';

type Handler = (event: EventBridgeEvent<string, unknown>) => Promise<void>;
let sendReceipt: Handler;

beforeAll(async () => {
  // The consumer builds its clients at import: the environment must point at the stack first.
  useLocalEnvironment();
  ({ handler: sendReceipt } = await import('../../functions/receipts/send-receipt.ts'));
});

let sequence = 0;
const uniqueEmail = (label: string) => `${label}-${process.pid}-${Date.now()}-${++sequence}@example.com`;

/** The receipts sent to `to` so far (their subjects say so, in either language). */
const receiptsTo = async (to: string): Promise<StoredMail[]> =>
  (await sentMail()).filter(
    (mail) => mail.destination.to.includes(to) && /: (your receipt|tu recibo)/.test(mail.subject),
  );

/** Waits for the pipeline to carry everything the merchant caused, then answers the receipts to `to`. */
async function receiptsAfterDrain(merchant: Merchant, to: string): Promise<StoredMail[]> {
  await pipelineDrained(localInfo, merchant.account.developerId);
  return receiptsTo(to);
}

/** The receipt page's address in a receipt e-mail's text part: on the stage's own base URL. */
function receiptLink(mail: StoredMail): string {
  const match = /^(\S+\/receipts\/([A-Za-z0-9]+))$/m.exec(mail.body.text);
  expect(match, mail.body.text).not.toBeNull();
  const [, url = '', token = ''] = match ?? [];
  expect(url.startsWith(`${apiUrl}/receipts/`)).toBe(true);
  expect(token).toHaveLength(43);
  return url;
}

async function fetchPage(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers, redirect: 'manual' });
  return { status: response.status, headers: response.headers, html: await response.text() };
}

describe('a paid checkout', () => {
  it('e-mails one receipt, whose link opens the page and the PDF with every field', async () => {
    const merchant = await newMerchant('receipts');
    await updateProfile(makeDeps(), merchant.account.developerId, { company_name: 'Acme <Shop> & Co' });
    const email = uniqueEmail('payer');
    const paid = await payThroughCheckout(merchant.auth, {
      payment: { amount: '12.34', description: 'Order <b>7</b>' },
      card: cardFields({ email, card_number: testCards.approved }),
    });

    const [mail, ...more] = await receiptsAfterDrain(merchant, email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Acme <Shop> & Co: your receipt for "Order <b>7</b>"');
    const text = mail?.body.text ?? '';
    for (const line of [
      'Merchant: Acme <Shop> & Co',
      'Amount: 12.34 USD',
      'Description: Order <b>7</b>',
      'Card: Visa •••• 4242',
      `Reference: ${paid.chargeId}`,
    ]) {
      expect(text).toContain(line);
    }
    const html = mail?.body.html ?? '';
    expect(html).toContain('Acme &lt;Shop&gt; &amp; Co');
    expect(html).not.toContain('<b>7</b>');
    const url = receiptLink(mail as StoredMail);
    expect(html).toContain(`<a href="${url}"`);
    // The token is not the charge's id, and the table keys its link by a keyed hash of it, never by
    // the token itself.
    const token = url.slice(url.lastIndexOf('/') + 1);
    expect(token).not.toContain(paid.chargeId.slice(3));
    const deps = makeDeps();
    const raw = await deps.db.send(new GetCommand({ TableName: deps.table, Key: receiptKeys.link(token) }));
    expect(raw.Item).toBeUndefined();
    const link = await findReceiptLink(deps, await stageReceiptKeys().lookup(), token);
    expect(link).toMatchObject({ charge_id: paid.chargeId, developer_id: merchant.account.developerId });
    expect(JSON.stringify(link)).not.toContain(token);

    const page = await fetchPage(url);
    expect(page.status, page.html).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(
      /^default-src 'none';.*frame-ancestors 'none'/,
    );
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    for (const value of [
      'Acme &lt;Shop&gt; &amp; Co',
      '<p class="amount">12.34 USD</p>',
      'Order &lt;b&gt;7&lt;/b&gt;',
      'Visa •••• 4242',
      paid.chargeId,
    ]) {
      expect(page.html).toContain(value);
    }
    expect(page.html).toContain(`href="${url}.pdf"`);

    const pdf = await fetch(`${url}.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="receipt-${paid.chargeId}.pdf"`);
    expect(pdf.headers.get('cache-control')).toBe('no-store');
    const bytes = new Uint8Array(await pdf.arrayBuffer());
    const content = await pdfContent(bytes);
    expect(content.pages).toBe(1);
    for (const value of [
      'Acme <Shop> & Co',
      '12.34 USD',
      'Order <b>7</b>',
      'Visa •••• 4242',
      paid.chargeId,
    ]) {
      expect(content.text).toContain(value);
    }

    // The first page as a reader draws it, at 1.5x: an A4 PNG with ink where the merchant and the
    // amount are, on a page that is mostly paper; its text read from that same rendered page.
    const rendered = await renderFirstPage(bytes, 1.5);
    expect([rendered.width, rendered.height]).toEqual([893, 1263]);
    const png = Buffer.from(rendered.png);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([rendered.width, rendered.height]);
    const upper = { x: 0, y: 0, width: rendered.width, height: rendered.height / 4 };
    expect(rendered.darkShare(upper)).toBeGreaterThan(0.005);
    expect(rendered.darkShare({ x: 0, y: 0, width: rendered.width, height: rendered.height })).toBeLessThan(
      0.1,
    );
    for (const drawn of ['Acme <Shop> & Co', '12.34 USD']) {
      const item = rendered.items.find((one) => one.text === drawn);
      expect(item, `${drawn} among ${rendered.items.map((one) => one.text).join(' | ')}`).toBeDefined();
      const box = item?.box ?? upper;
      expect(box.y + box.height).toBeLessThanOrEqual(upper.height);
      expect(rendered.darkShare(box)).toBeGreaterThan(0.1);
    }
    for (const value of ['Acme <Shop> & Co', '12.34 USD', '4242', paid.chargeId]) {
      expect(rendered.text).toContain(value);
    }
  });

  it('sends nothing more when the event is delivered again, at once or later', async () => {
    const merchant = await newMerchant('receipts-once');
    const email = uniqueEmail('again');
    const paid = await payThroughCheckout(merchant.auth, { card: cardFields({ email }) });
    expect(await receiptsAfterDrain(merchant, email)).toHaveLength(1);

    const listed = await api('GET', '/v1/events/?type=charge.succeeded', { auth: merchant.auth });
    expect(listed.status, listed.text).toBe(200);
    const results = (listed.json.results ?? listed.json) as {
      id: string;
      data: { object: { id: string } };
    }[];
    const event = results.find((item) => item.data.object.id === paid.chargeId);
    expect(event).toBeDefined();
    const stored = await makeDeps().db.send(
      new GetCommand({ TableName: makeDeps().table, Key: eventKeys.event(event?.id ?? '') }),
    );
    const delivery = (): EventBridgeEvent<string, unknown> => ({
      version: '0',
      id: randomUUID(),
      'detail-type': 'charge.succeeded',
      source: eventSource,
      account: '000000000000',
      time: new Date().toISOString(),
      region: 'us-east-1',
      resources: [],
      detail: stored.Item?.detail,
    });
    await Promise.all([sendReceipt(delivery()), sendReceipt(delivery())]);
    await sendReceipt(delivery());
    expect(await receiptsTo(email)).toHaveLength(1);
  });

  it("is written in the account's language: a Spanish account's receipt, page and PDF are Spanish", async () => {
    const merchant = await newMerchant('recibos');
    await updateProfile(makeDeps(), merchant.account.developerId, {
      company_name: 'Panadería Sol',
      language: 'es',
    });
    const email = uniqueEmail('pagador');
    const paid = await payThroughCheckout(merchant.auth, {
      payment: { amount: '250.00', currency: 'MXN', description: 'Pan dulce' },
      card: cardFields({ email }),
    });
    const [mail] = await receiptsAfterDrain(merchant, email);
    expect(mail?.subject).toBe('Panadería Sol: tu recibo de "Pan dulce"');
    expect(mail?.body.text).toContain('Importe: 250,00 MXN');
    expect(mail?.body.text).toContain(`Referencia: ${paid.chargeId}`);
    expect(mail?.body.html).toContain('<html lang="es">');
    const url = receiptLink(mail as StoredMail);
    // The page speaks the account's language, whatever the reader's browser asks for.
    const page = await fetchPage(url, { 'Accept-Language': 'en' });
    expect(page.html).toContain('<html lang="es">');
    expect(page.html).toContain('Recibo de pago');
    expect(page.html).toContain('<p class="amount">250,00 MXN</p>');
    const content = await pdfContent(new Uint8Array(await (await fetch(`${url}.pdf`)).arrayBuffer()));
    expect(content.text).toContain('Recibo de pago');
    expect(content.text).toContain('Panadería Sol');
  });
});

describe('a renewal', () => {
  it("e-mails the subscriber one receipt for the period's charge", async () => {
    const merchant = await newMerchant('receipts-renewal');
    const email = uniqueEmail('subscriber');
    const customer = await api('POST', '/v1/customers/', {
      auth: merchant.auth,
      body: { first_name: 'Sam', last_name: 'Scriber', email },
    });
    expect(customer.status, customer.text).toBe(201);
    const subscription = await subscribe({
      account: merchant.account,
      planId: 'a-plan',
      anchor: '2031-01-15T00:00:00.000Z',
      customerId: customer.json.data.id as string,
    });
    const billing = { ...makeDeps(), acquirer: simulatedAcquirer(() => new Date('2020-01-01')) };
    expect(
      await runBilling(billing, new Date('2031-02-15T00:00:00.000Z'), {
        developerId: merchant.account.developerId,
      }),
    ).toMatchObject({ renewed: 1 });
    const charges = (await api('GET', '/v1/payments/', { auth: merchant.auth })).json as unknown as {
      id: string;
      subscription_id: string | null;
    }[];
    const charge = charges.find((item) => item.subscription_id === subscription.id);
    const subscriptionScope = { developerId: merchant.account.developerId, mode: 'test' as const };
    expect(charge).toBeDefined();

    const [mail, ...more] = await receiptsAfterDrain(merchant, email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Test receipts-renewal: your receipt for "Gold"');
    expect(mail?.body.text).toContain('Hello Sam,');
    // What it bought (2 of the plan at 10.50 USD a month) and the period it pays for, the second.
    const bought = [
      'Amount: 21.00 USD',
      'Item: Gold × 2',
      'Price: 10.50 USD × 2 = 21.00 USD / month',
      'Period: 15 Feb 2031 – 15 Mar 2031',
      `Reference: ${charge?.id}`,
    ];
    for (const line of bought) expect(mail?.body.text).toContain(line);
    const url = receiptLink(mail as StoredMail);
    const page = await fetchPage(url);
    expect(page.status).toBe(200);
    expect(page.html).toContain(charge?.id);
    const pdf = await pdfContent(new Uint8Array(await (await fetch(`${url}.pdf`)).arrayBuffer()));
    for (const line of bought) {
      const [label = '', value = ''] = line.split(': ');
      expect(page.html).toContain(`<dt>${label}</dt><dd>${value}</dd>`);
      expect(pdf.text).toContain(value);
    }
    // Kept on the link when it was made: a change to the subscription since does not change it.
    const deps = makeDeps();
    const now = await getSubscription(deps, subscriptionScope, subscription.id);
    expect(now).toBeDefined();
    if (now) {
      await transactWrite(
        deps,
        subscriptionWrites(deps.table, now, { ...now, quantity: 5, version: now.version + 1 }),
      );
    }
    expect((await fetchPage(url)).html).toContain('<dd>Gold × 2</dd>');
    // A link made now would state nothing of it: 5 × 10.50 USD is not what the charge took.
    const stored = await getCharge(deps, subscriptionScope, charge?.id ?? '');
    expect(stored).toBeDefined();
    if (stored) expect(await receiptBought(deps, subscriptionScope, stored)).toEqual({});
  });
});

describe('a payment link and a trial', () => {
  it('a paid payment link e-mails its payer one receipt', async () => {
    const merchant = await newMerchant('receipts-link');
    const email = uniqueEmail('link-payer');
    const created = await api('POST', '/v1/payment-links/', {
      auth: merchant.auth,
      body: { description: 'Workshop seat', amount: '45.00' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await submitCard(created.json.data.link as string, { email })).status).toBe(200);
    const [mail, ...more] = await receiptsAfterDrain(merchant, email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Test receipts-link: your receipt for "Workshop seat"');
    expect(mail?.body.text).toContain('Amount: 45.00 USD');
    expect((await fetchPage(receiptLink(mail as StoredMail))).status).toBe(200);
  });

  it("a trial's card check sends no receipt; the charge at the trial's end sends one", async () => {
    const merchant = await newMerchant('receipts-trial');
    const email = uniqueEmail('trialist');
    const plan = await api('POST', '/v1/plans/', {
      auth: merchant.auth,
      body: { name: 'Gold', amount: '10.50', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    expect(plan.status, plan.text).toBe(201);
    const created = await api('POST', '/v1/subscriptions', {
      auth: merchant.auth,
      body: { plan_id: plan.json.data.id, trial_days: 7, return_url: 'https://shop.example/welcome' },
    });
    expect(created.status, created.text).toBe(201);
    expect((await submitCard(created.json.data.checkout_url as string, { email })).status).toBe(303);
    expect(await receiptsAfterDrain(merchant, email)).toEqual([]);

    const id = created.json.data.subscription_id as string;
    const trialing = (await api('GET', `/v1/subscriptions/${id}`, { auth: merchant.auth })).json;
    expect(trialing.status).toBe('trialing');
    await runBilling({ ...makeDeps(), acquirer: simulatedAcquirer() }, new Date(trialing.trial_end), {
      developerId: merchant.account.developerId,
    });
    const [mail, ...more] = await receiptsAfterDrain(merchant, email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Test receipts-trial: your receipt for "Gold"');
    expect(mail?.body.text).toContain('Amount: 10.50 USD');
    // The charge at the trial's end pays for the first period, which starts there.
    expect(mail?.body.text).toContain('Price: 10.50 USD / month');
    expect(mail?.body.text).toMatch(new RegExp(`^Period: ${displayDate(trialing.trial_end, 'en')} – `, 'm'));
  });
});

describe('an unknown receipt token', () => {
  it('is a 404 page for the page and the PDF alike, whatever its shape', async () => {
    for (const token of ['A'.repeat(43), 'not-a-token', `${'z'.repeat(42)}%2F`]) {
      for (const path of [`/receipts/${token}`, `/receipts/${token}.pdf`]) {
        const page = await fetchPage(`${apiUrl}${path}`);
        expect(page.status, path).toBe(404);
        expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(page.headers.get('x-frame-options')).toBe('DENY');
        expect(page.html).toContain('Receipt not found');
      }
    }
    const spanish = await fetchPage(`${apiUrl}/receipts/${'B'.repeat(43)}`, { 'Accept-Language': 'es' });
    expect(spanish.html).toContain('Recibo no encontrado');
  });
});
