/**
 * Every route of the API's resources answers the way GET /openapi.json says: system and
 * authentication routes, key rotation, plans, customers, taxes and products, webhook endpoints and
 * events, subscriptions, payment links and the customer portal. Each test exercises exactly the
 * routes openapi-routes.ts gives it, with a merchant of its own.
 */
import * as v from 'valibot';
import { describe, expect } from 'vitest';
import { errorSchemas } from '../../shared/core/envelopes.ts';
import { csrfOf, openPage, payThroughCheckout, postForm } from '../support/checkout.ts';
import { jpeg } from '../support/images.ts';
import { api, apiKey, apiUrl, clientCredentials } from '../support/stack.ts';
import { subscribe } from '../support/subscriptions.ts';
import {
  type Answered,
  componentCheck,
  type Doc,
  issuesOf,
  routeSuite,
  servedDocument,
} from './openapi-routes.ts';

describe('every route answers as the document says', () => {
  const suite = routeSuite('resources');
  const { routeTest, expectAnswer, expectError } = suite;

  routeTest('system and authentication routes', async ({ account, auth }) => {
    expectAnswer('GET', '/health', await api('GET', '/health'));
    expectAnswer('GET', '/openapi.json', await api('GET', '/openapi.json'));
    const token = await api('POST', '/authentication/token/', { body: clientCredentials(account) });
    expectAnswer('POST', '/authentication/token/', token);
    const badGrant = await api('POST', '/authentication/token/', {
      body: { ...clientCredentials(account), grant_type: 'password' },
    });
    expectError('POST', '/authentication/token/', badGrant, 400);
    const wrongSecret = await api('POST', '/authentication/token/', {
      body: { ...clientCredentials(account), client_secret: 'nope' },
    });
    expectError('POST', '/authentication/token/', wrongSecret, 401);
    expectError('GET', '/v1/auth/api-keys/', await api('GET', '/v1/auth/api-keys/'), 401);
    expectAnswer('GET', '/v1/auth/api-keys/', await api('GET', '/v1/auth/api-keys/', { auth }));
  });

  routeTest('plans, and the stored image a plan shows', async ({ auth }) => {
    const photo = jpeg();
    const created = await api('POST', '/v1/plans/', {
      auth,
      body: {
        name: 'Gold',
        currency: 'USD',
        amount: '10.00',
        interval: 'month',
        interval_count: 1,
        image: `data:image/jpeg;base64,${photo.toString('base64')}`,
      },
    });
    expectAnswer('POST', '/v1/plans/', created);
    const id = created.json.data.id as string;
    expectAnswer('GET', '/v1/plans/', await api('GET', '/v1/plans/', { auth }));
    expectError('GET', '/v1/plans/', await api('GET', '/v1/plans/?page=9', { auth }), 404);
    const one = await api('GET', `/v1/plans/${id}/`, { auth });
    expectAnswer('GET', '/v1/plans/{id}/', one);
    const image = await fetch(one.json.information.image);
    expectAnswer('GET', '/media/{name}', {
      status: image.status,
      headers: image.headers,
      text: `${(await image.arrayBuffer()).byteLength} bytes`,
    });
    const renamed = await api('PUT', `/v1/plans/${id}/`, { auth, body: { name: 'Platinum' } });
    expectAnswer('PUT', '/v1/plans/{id}/', renamed);
    expect(renamed.json.type).toBe('success');
    const unchanged = await api('PUT', `/v1/plans/${id}/`, { auth, body: { name: 'Platinum' } });
    expectAnswer('PUT', '/v1/plans/{id}/', unchanged);
    expect(unchanged.json.type).toBe('info');
    expectError(
      'POST',
      '/v1/plans/',
      await api('POST', '/v1/plans/', { auth, body: { name: 'No price' } }),
      400,
    );
    expectAnswer('DELETE', '/v1/plans/{id}/', await api('DELETE', `/v1/plans/${id}/`, { auth }));
    expectError('GET', '/v1/plans/{id}/', await api('GET', `/v1/plans/${id}/`, { auth }), 404);
  });

  routeTest(
    'key rotation: a test key may not rotate the live key (403); the live key rotates the test key',
    async ({ account, auth }) => {
      const path = '/v1/auth/api-keys/';
      const refused = await api('PATCH', path, { auth, body: { type: 'live' } });
      expectError('PATCH', path, refused, 403);
      expectError('PATCH', path, await api('PATCH', path, { auth, body: { type: 'both' } }), 400);
      // The request's parsing answers its own 400s flat (not nested in `message`), which the document lists too.
      for (const flat of [
        await api('PATCH', path, {
          auth,
          rawBody: '{"type":',
          headers: { 'Content-Type': 'application/json' },
        }),
        await api('PATCH', `${path}?test=true&test=true`, { auth, body: { type: 'test' } }),
      ]) {
        expectError('PATCH', path, flat, 400);
        expect(issuesOf(v.safeParse(errorSchemas.MessageEnvelope, JSON.parse(flat.text))), flat.text).toEqual(
          [],
        );
      }
      const rotated = await api('PATCH', path, { auth: apiKey(account.liveKey), body: { type: 'test' } });
      expectAnswer('PATCH', path, rotated);
      expect(rotated.json.data.key).toMatch(/^sk_test_/);
    },
  );

  routeTest(
    'customers: the record, its photo, its addresses, the list and the search view',
    async ({ auth }) => {
      const email = `openapi-${Date.now()}@example.com`;
      const created = await api('POST', '/v1/customers/', {
        auth,
        body: { first_name: 'Opal', last_name: 'Api', email, metadata: { k: 'v' } },
      });
      expectAnswer('POST', '/v1/customers/', created);
      const id = created.json.data.id as string;
      const path = `/v1/customers/${id}/`;
      expectAnswer('GET', '/v1/customers/{id}/', await api('GET', path, { auth }));
      expectError(
        'GET',
        '/v1/customers/{id}/',
        await api('GET', '/v1/customers/00000000-0000-4000-8000-000000000000/', { auth }),
        404,
      );
      expectAnswer('PUT', '/v1/customers/{id}/', await api('PUT', path, { auth, body: { phone: '1' } }));
      // The table stores no map with an empty key: such metadata is refused, never a 500.
      for (const metadata of [{ '': 'x' }, { a: { '': 'x' } }]) {
        expectError('PUT', '/v1/customers/{id}/', await api('PUT', path, { auth, body: { metadata } }), 400);
      }
      expectAnswer('GET', '/v1/customers/', await api('GET', '/v1/customers/', { auth }));
      expectAnswer('GET', '/v1/customers/', await api('GET', '/v1/customers/?search=opal', { auth }));
      expectError(
        'GET',
        '/v1/customers/',
        await api('GET', '/v1/customers/?search=nobody-here', { auth }),
        404,
      );
      expectError('GET', '/v1/customers/', await api('GET', '/v1/customers/?page=9', { auth }), 404);
      const form = new FormData();
      const png = Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      );
      form.set('photo', new Blob([png], { type: 'image/png' }), 'p.png');
      const photo = await fetch(`${apiUrl}${path}photo/`, {
        method: 'PUT',
        headers: { Authorization: auth },
        body: form,
      });
      expectAnswer('PUT', '/v1/customers/{id}/photo/', {
        status: photo.status,
        headers: photo.headers,
        text: await photo.text(),
      });
      const addresses = `${path}addresses/`;
      const added = await api('POST', addresses, { auth, body: { line1: '1 Main St' } });
      expectAnswer('POST', '/v1/customers/{id}/addresses/', added);
      await api('POST', addresses, { auth, body: { line1: '2 Main St' } });
      await api('POST', addresses, { auth, body: { line1: '3 Main St' } });
      expectError(
        'POST',
        '/v1/customers/{id}/addresses/',
        await api('POST', addresses, { auth, body: { line1: '4' } }),
        406,
      );
      expectAnswer('GET', '/v1/customers/{id}/addresses/', await api('GET', addresses, { auth }));
      expectAnswer(
        'DELETE',
        '/v1/customers/{id}/addresses/{address_id}/',
        await api('DELETE', `${addresses}${added.json.data.id}/`, { auth }),
      );
      expectAnswer('DELETE', '/v1/customers/{id}/', await api('DELETE', path, { auth }));
    },
  );

  routeTest('taxes and products, multipart with images', async ({ auth }) => {
    const tax = await api('POST', '/v1/taxes/', { auth, body: { name: 'IVA', value: '13' } });
    expectAnswer('POST', '/v1/taxes/', tax);
    expectAnswer('GET', '/v1/taxes/', await api('GET', '/v1/taxes/', { auth }));
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const send = async (method: string, path: string, fields: Record<string, string | Buffer>) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, new Blob([value], { type: 'image/png' }), 'p.png');
      }
      const response = await fetch(`${apiUrl}${path}`, {
        method,
        headers: { Authorization: auth },
        body: form,
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    };
    const created = await send('POST', '/v1/products/', {
      name: 'Mug',
      price: '10.00',
      taxes: String(tax.json.data.id),
      recurrence: '{"recurrence":"period","duration_period":1}',
      image_default: png,
      images: png,
    });
    expectAnswer('POST', '/v1/products/', created);
    const id = JSON.parse(created.text).data.id as string;
    expectAnswer('GET', '/v1/products/', await api('GET', '/v1/products/?search=mug', { auth }));
    expectError('GET', '/v1/products/', await api('GET', '/v1/products/?page=99', { auth }), 404);
    expectAnswer('GET', '/v1/products/{id}/', await api('GET', `/v1/products/${id}/`, { auth }));
    expectAnswer(
      'PUT',
      '/v1/products/{id}/',
      await send('PUT', `/v1/products/${id}/`, { name: 'Cup', default: '-remove-' }),
    );
    expectAnswer('DELETE', '/v1/products/{id}/', await api('DELETE', `/v1/products/${id}/`, { auth }));
    expectError('GET', '/v1/products/{id}/', await api('GET', `/v1/products/${id}/`, { auth }), 404);
  });

  routeTest('webhook endpoints, their deliveries, and events', async ({ auth }) => {
    const endpoints = '/v1/webhook-endpoints/';
    const created = await api('POST', endpoints, { auth, body: { url: 'http://127.0.0.1:9/hooks' } });
    expectAnswer('POST', endpoints, created);
    const id = created.json.data.id as string;
    expectError('POST', endpoints, await api('POST', endpoints, { auth, body: { url: 'ftp://x' } }), 400);
    expectAnswer('GET', endpoints, await api('GET', endpoints, { auth }));
    expectError('GET', endpoints, await api('GET', `${endpoints}?page=99`, { auth }), 404);
    const one = `${endpoints}${id}/`;
    expectAnswer('GET', '/v1/webhook-endpoints/{id}/', await api('GET', one, { auth }));
    expectError(
      'GET',
      '/v1/webhook-endpoints/{id}/',
      await api('GET', `${endpoints}we_AAAAAAAAAAAAAAAAAAAAAAAA/`, { auth }),
      404,
    );
    expectAnswer(
      'PUT',
      '/v1/webhook-endpoints/{id}/',
      await api('PUT', one, { auth, body: { enabled: false } }),
    );
    expectAnswer(
      'POST',
      '/v1/webhook-endpoints/{id}/rotate-secret/',
      await api('POST', `${one}rotate-secret/`, { auth }),
    );
    expectAnswer(
      'GET',
      '/v1/webhook-endpoints/{id}/deliveries/',
      await api('GET', `${one}deliveries/`, { auth }),
    );
    expectError(
      'GET',
      '/v1/webhook-endpoints/{id}/deliveries/',
      await api('GET', `${one}deliveries/?page=99`, { auth }),
      404,
    );
    const { id: paymentId } = await payThroughCheckout(auth); // stores payment.succeeded
    const events = await api('GET', '/v1/events/', { auth });
    expectAnswer('GET', '/v1/events/', events);
    expectAnswer('GET', '/v1/events/', await api('GET', '/v1/events/?type=payment.succeeded', { auth }));
    expectError('GET', '/v1/events/', await api('GET', '/v1/events/?page=99', { auth }), 404);
    const eventId = events.json.results[0]?.id as string;
    expect(events.json.results.map((event: Doc) => event.data.object.id)).toContain(paymentId);
    const event = await api('GET', `/v1/events/${eventId}/`, { auth });
    expectAnswer('GET', '/v1/events/{id}/', event);
    // Each event is the typed variant of its type that the document's Event union names.
    const asEvent = componentCheck(await servedDocument(), 'Event');
    for (const shown of [...events.json.results, event.json]) expect(asEvent(shown), shown.type).toEqual([]);
    expect(asEvent({ ...event.json, type: 'plan.deleted' }), 'a payment as plan.deleted').not.toEqual([]);
    expectError(
      'GET',
      '/v1/events/{id}/',
      await api('GET', '/v1/events/evt_AAAAAAAAAAAAAAAAAAAAAAAA/', { auth }),
      404,
    );
    expectAnswer(
      'POST',
      '/v1/events/{id}/redeliver/',
      await api('POST', `/v1/events/${eventId}/redeliver/`, { auth, body: {} }),
    );
    expectError(
      'POST',
      '/v1/events/{id}/redeliver/',
      await api('POST', `/v1/events/${eventId}/redeliver/`, { auth, body: { endpoint_id: id } }),
      409,
    );
    expectAnswer('DELETE', '/v1/webhook-endpoints/{id}/', await api('DELETE', one, { auth }));
  });

  routeTest(
    'subscriptions: create, get, the by-plan list, the list, a change and cancel',
    async ({ auth }) => {
      const plan = await api('POST', '/v1/plans/', {
        auth,
        body: { name: 'Docs', amount: '3.00', currency: 'USD', interval: 'month', interval_count: 1 },
      });
      const planId = plan.json.data.id as string;
      const created = await api('POST', '/v1/subscriptions', {
        auth,
        body: { plan_id: planId, return_url: 'https://shop.example/ok' },
      });
      expectAnswer('POST', '/v1/subscriptions', created);
      expectError(
        'POST',
        '/v1/subscriptions',
        await api('POST', '/v1/subscriptions', { auth, body: {} }),
        400,
      );
      const id = created.json.data.subscription_id as string;
      expectAnswer('GET', '/v1/subscriptions/{id}', await api('GET', `/v1/subscriptions/${id}`, { auth }));
      expectAnswer(
        'GET',
        '/v1/subscriptions/{id}',
        await api('GET', `/v1/subscriptions/${planId}`, { auth }),
      );
      expectError('GET', '/v1/subscriptions/{id}', await api('GET', '/v1/subscriptions/nope', { auth }), 404);
      expectError('GET', '/v1/subscriptions', await api('GET', '/v1/subscriptions?page=99', { auth }), 404);
      expectAnswer(
        'GET',
        '/v1/subscriptions',
        await api('GET', `/v1/subscriptions?plan_id=${planId}`, { auth }),
      );
      // Not started (its checkout unpaid): only its metadata changes.
      expectAnswer(
        'PUT',
        '/v1/subscriptions/{id}',
        await api('PUT', `/v1/subscriptions/${id}`, { auth, body: { metadata: { order: 'docs-1' } } }),
      );
      expectError(
        'PUT',
        '/v1/subscriptions/{id}',
        await api('PUT', `/v1/subscriptions/${id}`, { auth, body: { quantity: 2 } }),
        409,
      );
      expectError(
        'PUT',
        '/v1/subscriptions/{id}',
        await api('PUT', `/v1/subscriptions/${id}`, { auth, body: { quantity: 0 } }),
        400,
      );
      expectAnswer(
        'DELETE',
        '/v1/subscriptions/{id}',
        await api('DELETE', `/v1/subscriptions/${id}`, { auth }),
      );
      expectError(
        'DELETE',
        '/v1/subscriptions/{id}',
        await api('DELETE', `/v1/subscriptions/${id}`, { auth }),
        409,
      );
    },
  );

  routeTest(
    'payment links: create (with and without customers), list, get, update and delete',
    async ({ auth }) => {
      const base = '/v1/payment-links/';
      const one = '/v1/payment-links/{id}/';
      const created = await api('POST', base, { auth, body: { description: 'Docs', amount: '5.00' } });
      expectAnswer('POST', base, created);
      expectAnswer(
        'POST',
        base,
        await api('POST', base, {
          auth,
          body: {
            description: 'Docs',
            amount: 5,
            customers: [{ first_name: 'Doc', last_name: 'Reader', email: `docs-${Date.now()}@example.com` }],
          },
        }),
      );
      expectError('POST', base, await api('POST', base, { auth, body: { amount: '5.00' } }), 406);
      expectError('POST', base, await api('POST', base, { auth, body: { description: 'x' } }), 400);
      const id = created.json.data.id as string;
      expectAnswer('GET', base, await api('GET', `${base}?page_size=2`, { auth }));
      expectError('GET', base, await api('GET', `${base}?page=99`, { auth }), 404);
      expectAnswer('GET', one, await api('GET', `${base}${id}/`, { auth }));
      expectError(
        'GET',
        one,
        await api('GET', `${base}00000000-0000-4000-8000-000000000000/`, { auth }),
        404,
      );
      expectAnswer('PUT', one, await api('PUT', `${base}${id}/`, { auth, body: { recurring: true } }));
      expectError('PUT', one, await api('PUT', `${base}${id}/`, { auth, body: { status: 'nope' } }), 400);
      expectAnswer('PUT', one, await api('PUT', `${base}${id}/`, { auth, body: { status: 'paid' } }));
      expectError('PUT', one, await api('PUT', `${base}${id}/`, { auth, body: { active: false } }), 406);
      expectAnswer('DELETE', one, await api('DELETE', `${base}${id}/`, { auth }));
      expectError('DELETE', one, await api('DELETE', `${base}${id}/`, { auth }), 404);
    },
  );

  routeTest('the customer portal: its link, its page and a form of it', async ({ account, auth }) => {
    const customer = await api('POST', '/v1/customers/', {
      auth,
      body: { first_name: 'Doc', last_name: 'Reader', email: `portal-docs-${Date.now()}@example.com` },
    });
    expect(customer.status, customer.text).toBe(201);
    const customerId = customer.json.data.id as string;
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Docs', amount: '1.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const subscription = await subscribe({
      account,
      planId: plan.json.data.id as string,
      anchor: new Date().toISOString(),
      customerId,
    });
    const path = '/v1/customers/{id}/portal/';
    const link = await api('POST', `/v1/customers/${customerId}/portal/`, { auth });
    expectAnswer('POST', path, link);
    expectError(
      'POST',
      path,
      await api('POST', '/v1/customers/00000000000000000000000000000000/portal/', { auth }),
      404,
    );
    const asAnswer = (answer: Awaited<ReturnType<typeof openPage>>): Answered => ({
      status: answer.status,
      headers: answer.headers,
      text: answer.html,
    });
    const url = link.json.url as string;
    const page = await openPage(url);
    expectAnswer('GET', '/portal/{token}', asAnswer(page));
    const canceled = await postForm(url, {
      csrf_token: csrfOf(page.html),
      action: 'cancel',
      subscription_id: subscription.id,
    });
    expect(canceled.status, canceled.html).toBe(200);
    expectAnswer('POST', '/portal/{token}', asAnswer(canceled));
  });
});
