/**
 * docs/tutorial.md, run as a reader runs it: every shell block of the file as it stands, in order, in
 * one bash beside a fresh `npm start`. So the walk-through cannot drift from what cobro does: each
 * block must still work as written, print what its section says, and leave the stack holding what
 * the output showed; the webhook receiver its first block starts must have received every event the
 * session caused, signed, and stopped by itself at the key rotation.
 */
import { describe, expect, it } from 'vitest';
import { stackHarness } from './harness.ts';
import { runBash, shellBlocks } from './shell-blocks.ts';

const { running } = stackHarness();

/** Printed between blocks, so each section's output can be told apart. */
const marker = (index: number) => `@@ tutorial block ${index} @@`;

describe('the tutorial (docs/tutorial.md)', () => {
  it('runs block after block on a fresh npm start: plans, customers, products, a paid and refunded payment with its receipt, a trial made active, the portal, payment links, webhooks, a key rotation', {
    timeout: 600_000,
  }, async () => {
    const blocks = shellBlocks('docs/tutorial.md');
    const script = blocks.map((block, index) => `${block.script}\nprintf '\\n%s\\n' '${marker(index)}'`);
    const { stateDir, info } = await running(['--in-memory']);
    const { code, stdout, stderr, leftOver } = await runBash(script.join('\n'), stateDir, 300_000);
    const shown = `stdout:\n${stdout}\nstderr:\n${stderr}`;
    expect(code, shown).toBe(0);
    expect(stderr, shown).toBe('');
    expect(leftOver, `${shown}\nsomething it started was still running`).toBe(false);

    /** What the blocks of the section headed `heading` printed. */
    const outputs = stdout.split(/^@@ tutorial block \d+ @@$/m);
    const printed = (heading: string) => {
      const indexes = blocks.flatMap((block, index) => (block.section === heading ? [index] : []));
      expect(indexes.length, `no shell block under "## ${heading}"`).toBeGreaterThan(0);
      return indexes.map((index) => outputs[index] ?? '').join('\n');
    };
    // Every section of the walk-through has its blocks, and each ran to its end.
    expect(outputs).toHaveLength(blocks.length + 1);

    const auth = printed('Authenticating');
    const masked =
      /^\{"test":\{"key":"sk_test_\*+\w{4}","created_at":"[^"]+"\},"live":\{"key":"sk_live_\*+\w{4}"/gm;
    // Basic, Api-Key and Bearer each answered the masked keys.
    expect(auth.match(masked), shown).toHaveLength(3);

    const plans = printed('Plans');
    const plan = /"title":"Plan created".*"data":\{"id":"([\w-]+)"\}/.exec(plans)?.[1];
    expect(plan, plans).toBeDefined();
    expect(plans).toMatch(/^HTTP\/1\.1 201 Created\r?\nIdempotent-Replayed: true\r?$/im);
    expect(plans).toContain('"title":"Plan updated"');
    expect(plans).toContain('"title":"Field cannot change"');
    expect(plans).toMatch(/"title":"Price validation error".*"type":"danger"/);
    expect(plans).toContain('"title":"Plan deleted"');

    const customers = printed('Customers');
    const customer = /"title":"Customer created".*?"data":\{"id":"([\w-]+)"/.exec(customers)?.[1];
    expect(customer, customers).toBeDefined();
    // The search view is a bare array with developer_id; the paged search Envelope B.
    expect(customers).toMatch(new RegExp(`^\\[\\{"id":"${customer}".*"developer_id":`, 'm'));
    expect(customers).toMatch(
      new RegExp(`^\\{"count":1,"next":null,"previous":null,"results":\\[\\{"id":"${customer}"`, 'm'),
    );
    expect(customers).toContain('"phone":"+44 20 0000 0000"');
    expect(customers).toContain('"title":"Address deleted"');
    // The photo's URL serves the image without credentials.
    const photo = /^(http:\/\/\S+\/media\/[0-9a-f]{64}\.png)$/m.exec(customers)?.[1];
    expect(photo, customers).toBeDefined();
    const image = await fetch(photo as string);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');

    const products = printed('Taxes and products');
    expect(products).toMatch(/^\[\{"id":\d+,"name":"IVA","value":13,/m);
    expect(products).toMatch(/"title":"Product created".*"price":"10\.00".*"total_price":"11\.30"/);
    expect(products).toMatch(/"title":"Product updated".*"price":"12\.00".*"total_price":"13\.56"/);
    expect(products).toContain('"title":"Product deleted"');

    const payments = printed('Payments, the hosted checkout and refunds');
    const payment = /"title":"Payment created".*"id_payment":"(pay_\w+)"/.exec(payments)?.[1];
    expect(payment, payments).toBeDefined();
    expect(payments).toMatch(/^HTTP\/1\.1 303 See Other\r?$/m);
    expect(payments).toContain(`Location: http://localhost:8080/thanks?id_payment=${payment}`);
    const charge = new RegExp(
      `^\\{"id":"${payment}".*"status":"completed".*"charge_id":"(ch_\\w+)"`,
      'm',
    ).exec(payments)?.[1];
    expect(charge, payments).toBeDefined();
    // The receipt the payer was e-mailed: its page and its PDF.
    expect(payments).toMatch(
      new RegExp(
        `^Amount 25\\.00 USD\\nDescription Order 42\\nCard Visa •••• 4242\\nReference ${charge}$`,
        'm',
      ),
    );
    expect(payments).toMatch(/^%PDF-1\.\d$/m);
    expect(payments).toMatch(new RegExp(`"charge_id":"${charge}","amount":"5\\.00".*"status":"succeeded"`));
    expect(payments).toMatch(new RegExp(`^\\{"id":"${charge}".*"amount_refunded":5,`, 'm'));

    const subscriptions = printed('Subscriptions');
    const subscription = /"title":"Subscription created".*"subscription_id":"(sub_\w+)"/.exec(
      subscriptions,
    )?.[1];
    expect(subscription, subscriptions).toBeDefined();
    expect(subscriptions).toMatch(
      /^0\.00 USD today\nthen 19\.90 USD \/ month from \d+ \w+ \d{4}\nStart trial$/m,
    );
    expect(subscriptions).toContain(
      `Location: http://localhost:8080/welcome?subscription_id=${subscription}`,
    );
    expect(subscriptions).toMatch(
      new RegExp(`^\\{"subscription_id":"${subscription}".*"status":"trialing"`, 'm'),
    );
    // The billing step at the trial's end charged the first period.
    expect(subscriptions).toMatch(/^\{"billed":1,"now":"[^"]+","due":1,"renewed":1,"payment_failed":0,/m);
    expect(subscriptions).toMatch(/^"status":"active"$/m);

    const portal = printed('The customer portal');
    expect(portal).toMatch(/^\{"url":"http:\/\/\S+\/portal\/\w+","expires_at":"[^"]+"\}$/m);
    expect(portal).toMatch(/^Hello Ada\n/m);
    expect(portal).toMatch(/^Gold\n19\.90 USD \/ month\nStatus Active$/m);
    expect(portal).toMatch(/^.*: Order 42 25\.00 USD \(refunded 5\.00 USD\), Visa •••• 4242$/m);
    // The PUT: set to end at the period's end (with its date and the metadata), then undone.
    expect(portal).toMatch(/^true\n\d{4}-\d\d-\d\dT[\d:.]+Z\n42\nnull$/m);
    expect(portal).toContain('at_period_end is not a query parameter of this route.');
    expect(portal).toContain('"title":"Subscription canceled"');
    expect(portal).toMatch(/"code":409,"title":"Subscription already canceled"/);

    const links = printed('Payment links');
    const link = /"title":"Payment link created".*"data":\{"id":"([\w-]+)"/.exec(links)?.[1];
    expect(link, links).toBeDefined();
    expect(links).toMatch(/^"recurring":true$/m);
    expect(links).toMatch(/^Guitar lesson\n45\.00 USD \/ month\nPayment received$/m);
    expect(links).toMatch(/^"status":"paid_period"$/m);
    // Its date came: the page opens again, the date a month on from Jan 31 (Feb 28, or 29).
    expect(links).toMatch(/"payment_links":\{"due":1,"pending_period":1,/);
    expect(links).toMatch(/^"next_date_of_payment":"\d{4}-02-2[89] 12:00:00"\n"status":"pending_period"$/m);
    expect(links).toMatch(/"customer_name":"Ana Mora"/);
    expect(links).toContain('"title":"Payment link deleted"');
    expect(links).toMatch(/^404$/m);

    const events = printed('Events and webhooks');
    expect(events).toMatch(/^\{"count":\d+,"next":"http:\S+\/v1\/events\/\?page=2&page_size=2"/m);
    expect(events).toMatch(
      /^\{"count":\d+,.*"results":\[\{"id":"del_\w+","event_id":"evt_\w+",.*"status_code":200,/m,
    );
    expect(events).toMatch(
      /^Triggered payment\.succeeded evt_\w+ \(test mode\) for account 1: on its way to we_\w+\./m,
    );

    const rules = printed('What to expect');
    for (const answer of [
      '{"status":"ok"}',
      '{"detail":"Authentication credentials were not provided."}',
      '{"detail":"Invalid key format."}',
      '"code":"token_not_valid"',
      '{"code":403,"title":"Mode mismatch"',
      'Allow: POST, GET',
      '"title":"Plan no encontrado"',
      'page takes one value',
      '{"code":404,"title":"Invalid page"',
      'pay_x is a payment id',
      '{"openapi":"3.1.0","info":{"title":"cobro"',
    ])
      expect(rules, rules).toContain(answer);
    expect(rules).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r?$/m);

    const rotation = printed('Rotating the test key');
    const key = /"title":"Key rotated".*"key":"(sk_test_\w+)"/.exec(rotation)?.[1];
    expect(key, rotation).toBeDefined();
    expect(rotation).toMatch(new RegExp(`"key":"sk_test_\\*+${(key as string).slice(-4)}"`));
    // The receiver got every event the session caused, each signed, and stopped at the rotation.
    for (const type of [
      'plan.deleted',
      'payment.succeeded',
      'charge.succeeded',
      'refund.created',
      'subscription.created',
      'subscription.activated',
      'subscription.renewed',
      'subscription.canceled',
      'payment_link.paid',
      'api_key.rotated',
    ])
      expect(rotation).toMatch(
        new RegExp(`^\\S+ {2}${type.replace('.', '\\.')} {2}evt_\\w+ {2}\\[200\\] {2}signature ok$`, 'm'),
      );
    expect(rotation).not.toContain('NOT verified');
    expect(rotation).toMatch(/^Disabled endpoint we_\w+ /m);

    // What the output said is what the stack holds, read with the new key.
    const read = async (path: string) => {
      const answer = await fetch(`${info.api_url}${path}`, { headers: { Authorization: `Api-Key ${key}` } });
      expect(answer.status, path).toBe(200);
      return answer.json();
    };
    expect(await read(`/v1/subscriptions/${subscription}`)).toMatchObject({ status: 'canceled' });
    expect(await read(`/v1/plans/${plan}/`)).toMatchObject({ information: { name: 'Gold', count: 0 } });
    expect(await read(`/v1/charges/${charge}/`)).toMatchObject({ amount_refunded: 5, customer });
    expect(await read(`/v1/customers/${customer}/`)).toMatchObject({
      first_name: 'Ada',
      phone: '+44 20 0000 0000',
    });
  });
});
