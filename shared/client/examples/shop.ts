// A shop's integration with cobro through the typed client. Against `npm start`:
//   COBRO_API_KEY=sk_test_… npm run -s example:shop
// (COBRO_API_URL, http://127.0.0.1:3000 by default, names another stack.)
import { createServer } from 'node:http';
import { CobroError, type CobroEvent, createCobro, verifyWebhook } from '@cobro/client';

const apiKey = process.env.COBRO_API_KEY;
if (!apiKey) throw new Error('Set COBRO_API_KEY to a test key (the npm start banner shows one).');
const cobro = createCobro({ baseUrl: process.env.COBRO_API_URL ?? 'http://127.0.0.1:3000', apiKey });

// A webhook receiver: it verifies each delivery's signature, then reads the event by its type.
let secret = '';
const paid = new Map<string, (chargeId: string) => void>();
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    let event: CobroEvent;
    try {
      event = verifyWebhook(secret, Buffer.concat(chunks), request.headers);
    } catch {
      response.writeHead(400).end(); // not cobro's, or changed on the way
      return;
    }
    switch (event.type) {
      case 'payment.succeeded': {
        const payment = event.data.object;
        if (payment.charge_id) paid.get(payment.id)?.(payment.charge_id);
        break;
      }
      case 'subscription.activated':
        console.log(
          `webhook: subscription ${event.data.object.subscription_id} is ${event.data.object.status}`,
        );
        break;
      case 'refund.created':
        console.log(`webhook: refunded ${event.data.object.amount} ${event.data.object.currency}`);
        break;
    }
    response.writeHead(200).end();
  });
});
await new Promise<void>((listening) => receiver.listen(0, '127.0.0.1', listening));
const address = receiver.address();
const port = typeof address === 'object' && address ? address.port : 0;
const endpoint = await cobro.POST('/v1/webhook-endpoints/', {
  body: {
    url: `http://127.0.0.1:${port}/cobro`,
    events: ['payment.succeeded', 'subscription.activated', 'refund.created'],
  },
});
secret = endpoint.data.secret;

// A plan, a customer, and the customer's subscription: its checkout page takes the card.
const plan = await cobro.POST('/v1/plans/', {
  body: { name: 'Gold', currency: 'USD', amount: '19.90', interval: 'month', interval_count: 1 },
});
const customer = await cobro.POST('/v1/customers/', {
  body: { first_name: 'Ada', last_name: 'Lovelace', email: `ada.${Date.now()}@example.com` },
});
const subscription = await cobro.POST('/v1/subscriptions', {
  body: { plan_id: plan.data.id, customer_id: customer.data.id, return_url: 'http://localhost:8080/welcome' },
});
console.log(`subscription checkout: ${subscription.data.checkout_url}`);

// A one-off payment; the shop refunds part of it once its webhook says it is paid.
const payment = await cobro.POST('/v1/payments/', {
  body: {
    amount: '25.00',
    currency: 'USD',
    description: 'Order 42',
    items: ['T-shirt'],
    return_url: 'http://localhost:8080/thanks',
  },
});
const chargeId = new Promise<string>((resolve) => paid.set(payment.data.id_payment, resolve));
console.log(`pay order 42 (card 4242 4242 4242 4242): ${payment.data.redirect}`);
const refund = await cobro.POST('/v1/refunds/', {
  body: { charge_id: await chargeId, amount: '5.00', reason: 'requested_by_customer' },
});
console.log(`refund ${refund.id}: ${refund.amount} ${refund.currency}`);

// Every plan, page after page.
for await (const each of cobro.paginate('/v1/plans/', { query: { page_size: 10 } })) {
  console.log(`plan ${each.information.name}: ${each.information.amount} ${each.information.currency}`);
}

// An error answer is a CobroError: its status and the envelope cobro answered.
try {
  await cobro.GET('/v1/plans/{id}/', { params: { path: { id: 'no-such-plan' } } });
} catch (error) {
  if (!(error instanceof CobroError)) throw error;
  console.log(`no such plan: ${error.status} ${error.envelope?.title}`);
}

await cobro.DELETE('/v1/webhook-endpoints/{id}/', { params: { path: { id: endpoint.data.id } } });
receiver.close();
