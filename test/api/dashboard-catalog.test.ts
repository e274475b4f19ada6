/**
 * The dashboard's plans, products and payment links pages against the local stack: the create
 * schema's refusals shown beside their fields with 400 and nothing created, a double submit that
 * creates once, CSRF refused with nothing changed, another account's record 404, deletes behind a
 * confirmation step, and lists that are the API's lists.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DashboardClient, dashboardUrl, formToken, hiddenField } from '../support/dashboard.ts';
import { api, apiKey, newAccount, type TestAccount, useLocalEnvironment } from '../support/stack.ts';

let account: TestAccount;
let auth: string;

beforeAll(async () => {
  useLocalEnvironment();
  account = await newAccount('dashboard-catalog');
  auth = apiKey(account.testKey);
});

/** The account's plans as the API lists them (names). */
const planNames = async (key = auth) => {
  const answer = await api('GET', '/v1/plans/?page_size=100', { auth: key });
  return answer.status === 200
    ? (answer.json.results as { information: { name: string } }[]).map((p) => p.information.name)
    : [];
};

const planForm = (html: string, fields: Record<string, string>) => ({
  csrf_token: formToken(html),
  idempotency_key: hiddenField(html, 'idempotency_key'),
  name: 'Gold',
  description: '',
  amount: '9.90',
  currency: 'USD',
  interval: 'month',
  interval_count: '1',
  trial_period_days: '0',
  ...fields,
});

describe('plans', () => {
  it('the create schema’s refusals: 400, each beside its field, the values kept, nothing created', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const page = await browser.get('plans');
    expect(page.status, page.html).toBe(200);
    const refused = await browser.post(
      'plans',
      planForm(page.html, { name: 'Too precise', amount: '9.999', interval_count: '40' }),
    );
    expect(refused.status, refused.html).toBe(400);
    // The API refuses the same body with 400 too; the page shows the field's own message beside it.
    const apiAnswer = await api('POST', '/v1/plans/', {
      auth,
      body: {
        name: 'Too precise',
        amount: '9.999',
        currency: 'USD',
        interval: 'month',
        interval_count: '40',
      },
    });
    expect(apiAnswer.status).toBe(400);
    const fieldMessage = (apiAnswer.json.data.errors as { field: string; message: string }[]).find(
      (error) => error.field === 'interval_count',
    )?.message as string;
    expect(fieldMessage).toBeTruthy();
    expect(refused.html).toContain(`<p id="interval_count_error" class="error">`);
    expect(refused.html).toContain('aria-invalid="true"');
    expect(refused.html).toContain('value="9.999"');
    expect(refused.html).toContain('value="Too precise"');
    // The same form key, so the corrected form is still one form.
    expect(hiddenField(refused.html, 'idempotency_key')).toBe(hiddenField(page.html, 'idempotency_key'));
    expect(await planNames()).not.toContain('Too precise');

    // The amount's precision in its currency, the domain's check past the schema: 400 on the page.
    const precise = await browser.post(
      'plans',
      planForm(page.html, { name: 'Too precise', amount: '9.999' }),
    );
    expect(precise.status).toBe(400);
    expect(precise.html).toContain('<p id="amount_error" class="error">');
    expect(await planNames()).not.toContain('Too precise');
  });

  it('a double submit creates one plan; the list shows it; delete asks first, then deletes', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const page = await browser.get('plans');
    const fields = planForm(page.html, { name: 'Silver twice', amount: '12.50', trial_period_days: '7' });
    const [one, two] = await Promise.all([browser.post('plans', fields), browser.post('plans', fields)]);
    const answers = [one, two];
    // Both at once: one creates, the other finds the claim (the same result, or 409 while it runs).
    const done = answers.filter((answer) => answer.status === 303);
    expect(
      done.length,
      answers.map((answer) => `${answer.status} ${answer.html.slice(0, 300)}`).join('\n'),
    ).toBeGreaterThan(0);
    for (const answer of answers) expect([303, 409]).toContain(answer.status);
    const again = await browser.post('plans', fields);
    expect(again.status).toBe(303);
    expect(again.location).toBe(done[0]?.location);
    expect((await planNames()).filter((name) => name === 'Silver twice')).toHaveLength(1);

    const listed = await browser.get(again.location as string);
    expect(listed.status).toBe(200);
    expect(listed.html).toContain('Created “Silver twice”.');
    expect(listed.html).toContain('12.50 USD / month');
    expect(listed.html).toContain('7 days');

    const id = new URL(again.location as string).searchParams.get('created') as string;
    // Its subscriber count links to the subscriptions list filtered by the plan: the API's filter.
    const subscriptions = `subscriptions?plan_id=${id}`;
    expect(listed.html).toContain(`href="${dashboardUrl(subscriptions)}"`);
    const filtered = await browser.get(subscriptions);
    expect(filtered.status, filtered.html).toBe(200);
    expect(filtered.html).toContain(`value="${id}"`);
    const confirm = await browser.get(`plans/${id}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Deleting a plan is for good');
    expect(confirm.html).toContain('It has no active subscriptions.');
    expect(await planNames()).toContain('Silver twice');
    const deleted = await browser.post(`plans/${id}/delete`, { csrf_token: formToken(confirm.html) });
    expect(deleted.status, deleted.html).toBe(303);
    expect(deleted.location).toBe(dashboardUrl('plans?deleted=1'));
    expect((await browser.get(deleted.location as string)).html).toContain(
      '<p class="notice" role="status">The plan was deleted.</p>',
    );
    expect((await api('GET', `/v1/plans/${id}/`, { auth })).status).toBe(404);
    expect((await browser.get(`plans/${id}/delete`)).status).toBe(404);
  });

  it('a wrong CSRF token is 403 and creates or deletes nothing', async () => {
    const created = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Kept', amount: '5.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const id = created.json.data.id as string;
    const browser = await new DashboardClient().signedIn(account.testKey);
    const page = await browser.get('plans');
    const refused = await browser.post('plans', {
      ...planForm(page.html, { name: 'Forged' }),
      csrf_token: 'x'.repeat(32),
    });
    expect(refused.status).toBe(403);
    expect(await planNames()).not.toContain('Forged');
    const forged = await browser.post(`plans/${id}/delete`, { csrf_token: 'x'.repeat(32) });
    expect(forged.status).toBe(403);
    expect((await api('GET', `/v1/plans/${id}/`, { auth })).status).toBe(200);
  });

  it("another account's plan is 404 on its pages, and is not deleted", async () => {
    const other = await newAccount('dashboard-catalog-other');
    const otherAuth = apiKey(other.testKey);
    const created = await api('POST', '/v1/plans/', {
      auth: otherAuth,
      body: { name: 'Theirs', amount: '5.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const id = created.json.data.id as string;
    const browser = await new DashboardClient().signedIn(account.testKey);
    const confirm = await browser.get(`plans/${id}/delete`);
    expect(confirm.status).toBe(404);
    const page = await browser.get('plans');
    const refused = await browser.post(`plans/${id}/delete`, { csrf_token: formToken(page.html) });
    expect(refused.status).toBe(404);
    expect((await api('GET', `/v1/plans/${id}/`, { auth: otherAuth })).status).toBe(200);
    // The live session of the same account does not see the test plan either.
    const live = await new DashboardClient().signedIn(account.liveKey);
    expect((await live.get('plans')).html).not.toContain('Silver twice');
  });

  it('archives and restores a plan as PUT /v1/plans/{id}/ does: no new subscription while archived; CSRF, a bad flag and another account refused', async () => {
    const created = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Seasonal', amount: '4.00', currency: 'USD', interval: 'month', interval_count: 1 },
    });
    const id = created.json.data.id as string;
    const activeOf = async () => (await api('GET', `/v1/plans/${id}/`, { auth })).json.information.active;
    const subscribe = () =>
      api('POST', '/v1/subscriptions', {
        auth,
        body: { plan_id: id, return_url: 'https://shop.example/ok' },
      });
    const browser = await new DashboardClient().signedIn(account.testKey);
    const page = await browser.get('plans?name=Seasonal');
    expect(page.html).toContain(`action="${dashboardUrl(`plans/${id}/active`)}"`);
    expect(page.html).toContain('aria-label="Archive: Seasonal"');
    const csrf_token = formToken(page.html);

    expect(
      (await browser.post(`plans/${id}/active`, { csrf_token: 'x'.repeat(32), active: 'false' })).status,
    ).toBe(403);
    expect((await browser.post(`plans/${id}/active`, { csrf_token, active: 'maybe' })).status).toBe(400);
    expect(await activeOf()).toBe(true);

    const archived = await browser.post(`plans/${id}/active`, { csrf_token, active: 'false' });
    expect(archived.status, archived.html).toBe(303);
    expect(await activeOf()).toBe(false);
    expect((await subscribe()).status).toBe(400);
    const said = await browser.get(archived.location as string);
    expect(said.html).toContain('Archived “Seasonal”');
    expect(said.html).toContain('aria-label="Restore: Seasonal"');
    // Archiving what is archived changes nothing and says the same.
    expect((await browser.post(`plans/${id}/active`, { csrf_token, active: 'false' })).status).toBe(303);

    const restored = await browser.post(`plans/${id}/active`, { csrf_token, active: 'true' });
    expect(restored.status).toBe(303);
    expect((await browser.get(restored.location as string)).html).toContain('Restored “Seasonal”');
    expect(await activeOf()).toBe(true);
    expect((await subscribe()).status).toBe(201);

    const stranger = await new DashboardClient().signedIn(
      (await newAccount('dashboard-catalog-archive')).testKey,
    );
    const strangerPage = await stranger.get('plans');
    const foreign = await stranger.post(`plans/${id}/active`, {
      csrf_token: formToken(strangerPage.html),
      active: 'false',
    });
    expect(foreign.status).toBe(404);
    expect(await activeOf()).toBe(true);
  });

  it("a delete's notice names no record: text in the query shows nothing", async () => {
    const browser = await new DashboardClient({ 'accept-language': 'es' }).signedIn(account.testKey);
    const crafted = await browser.get(`plans?deleted=${encodeURIComponent('Call +1 555 0100 now')}`);
    expect(crafted.status).toBe(200);
    expect(crafted.html).toContain('Se eliminó el plan.');
    expect(crafted.html).not.toContain('555 0100');
  });

  it('archive racing delete: the plan ends deleted, the archive answers done or 404, never a 500', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    for (let round = 0; round < 3; round++) {
      const created = await api('POST', '/v1/plans/', {
        auth,
        body: {
          name: `Raced ${round}`,
          amount: '3.00',
          currency: 'USD',
          interval: 'month',
          interval_count: 1,
        },
      });
      const id = created.json.data.id as string;
      const csrf_token = formToken((await browser.get('plans')).html);
      const [archived, deleted] = await Promise.all([
        browser.post(`plans/${id}/active`, { csrf_token, active: 'false' }),
        browser.post(`plans/${id}/delete`, { csrf_token }),
      ]);
      expect(deleted.status, deleted.html.slice(0, 300)).toBe(303);
      expect([303, 404], archived.html.slice(0, 300)).toContain(archived.status);
      expect((await api('GET', `/v1/plans/${id}/`, { auth })).status).toBe(404);
    }
  });

  it('a notice naming no plan (too long, or not an id) shows the list without a notice', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    for (const query of [
      `created=${'a'.repeat(2000)}`,
      `changed=${'b'.repeat(2000)}`,
      'changed=not-a-plan',
    ]) {
      const page = await browser.get(`plans?${query}`);
      expect(page.status, query).toBe(200);
      expect(page.html).not.toContain('Archived “');
    }
    // The products and links lists alike: text that is no id of theirs names nothing.
    for (const path of ['products?created=not-a-product', 'links?created=not-a-link']) {
      const page = await browser.get(path);
      expect(page.status, `${path}: ${page.html.slice(0, 200)}`).toBe(200);
      expect(page.html).not.toContain('Created “');
    }
  });

  it("the list is the API's: its filters and its 400 for a malformed one", async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const yearly = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Yearly filter', amount: '99.00', currency: 'USD', interval: 'year', interval_count: 1 },
    });
    expect(yearly.status).toBe(201);
    const filtered = await browser.get('plans?interval=year');
    expect(filtered.status).toBe(200);
    expect(filtered.html).toContain('Yearly filter');
    expect(filtered.html).not.toContain('>Kept<');
    const malformed = await browser.get('plans?interval=week');
    const apiMalformed = await api('GET', '/v1/plans/?interval=week', { auth });
    expect(malformed.status).toBe(apiMalformed.status);
    expect(malformed.status).toBe(400);
    const paged = await browser.get('plans?page_size=1');
    expect(paged.html).toContain('rel="next"');
  });

  it('a Spanish page takes the amount with a decimal comma, grouped thousands too', async () => {
    const browser = await new DashboardClient({ 'accept-language': 'es' }).signedIn(account.testKey);
    const page = await browser.get('plans');
    const made = await browser.post(
      'plans',
      planForm(page.html, { name: 'Coma decimal', amount: '1.234,50' }),
    );
    expect(made.status, made.html).toBe(303);
    const plans = (await api('GET', '/v1/plans/?name=Coma decimal', { auth })).json.results as {
      information: { amount: string };
    }[];
    expect(plans.map((plan) => plan.information.amount)).toEqual(['1234.50']);
  });

  it('a list refusal with a title says it as two sentences, so the Spanish message keeps its capital', async () => {
    const browser = await new DashboardClient({ 'accept-language': 'es' }).signedIn(account.testKey);
    const none = await browser.get('plans?name=NingunPlanSeLlamaAsi');
    const apiNone = await api('GET', '/v1/plans/?name=NingunPlanSeLlamaAsi', { auth });
    expect(none.status).toBe(apiNone.status);
    expect(none.html).toContain('No se encontraron planes. El plan consultado no existe.');
    expect(none.html).not.toContain('planes: El');
  });
});

describe('products', () => {
  it('creates once from text fields, refuses what the API refuses, deletes after confirming', async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const page = await browser.get('products');
    expect(page.status, page.html).toBe(200);
    expect(page.html).toContain('Images are added through the API');
    const base = {
      csrf_token: formToken(page.html),
      idempotency_key: hiddenField(page.html, 'idempotency_key'),
      name: 'Blue mug',
      price: '7.5',
      currency: 'USD',
      short_description: 'A mug',
      description: '',
      sku: 'MUG-1',
      stock: '',
    };
    const refused = await browser.post('products', { ...base, price: '7.555' });
    expect(refused.status).toBe(400);
    const made = await browser.post('products', base);
    expect(made.status, made.html).toBe(303);
    expect((await browser.post('products', base)).location).toBe(made.location);
    const listedApi = await api('GET', '/v1/products/?search=blue mug', { auth });
    expect(listedApi.json.count).toBe(1);
    const listed = await browser.get(made.location as string);
    expect(listed.html).toContain('Created “Blue mug”.');
    expect(listed.html).toContain('7.50 USD');

    const id = new URL(made.location as string).searchParams.get('created') as string;
    const confirm = await browser.get(`products/${id}/delete`);
    expect(confirm.html).toContain('Payment links that name it keep working');
    const deleted = await browser.post(`products/${id}/delete`, { csrf_token: formToken(confirm.html) });
    expect(deleted.status).toBe(303);
    expect((await browser.get(deleted.location as string)).html).toContain('The product was deleted.');
    expect((await api('GET', `/v1/products/${id}/`, { auth })).status).toBe(404);
  });
});

describe('payment links', () => {
  it("creates one link whose URL is shown read-only, refuses the API's minimum, deletes after confirming", async () => {
    const browser = await new DashboardClient().signedIn(account.testKey);
    const page = await browser.get('links');
    expect(page.status, page.html).toBe(200);
    const base = {
      csrf_token: formToken(page.html),
      idempotency_key: hiddenField(page.html, 'idempotency_key'),
      description: 'Workshop seat',
      amount: '0.50',
      currency: 'USD',
    };
    const below = await browser.post('links', base);
    expect(below.status).toBe(400);
    const noDescription = await browser.post('links', { ...base, description: '', amount: '25.00' });
    expect(noDescription.status).toBe(406);
    expect((await api('GET', '/v1/payment-links/', { auth })).json.count).toBe(0);

    const made = await browser.post('links', { ...base, amount: '25.00' });
    expect(made.status, made.html).toBe(303);
    expect((await browser.post('links', { ...base, amount: '25.00' })).location).toBe(made.location);
    const links = (await api('GET', '/v1/payment-links/', { auth })).json;
    expect(links.count).toBe(1);
    const shown = await browser.get(made.location as string);
    expect(shown.html).toContain(`<input id="made_link_url" value="${links.results[0].link}" readonly`);
    expect(shown.html).toContain('25.00 USD');

    const id = links.results[0].id as string;
    const confirm = await browser.get(`links/${id}/delete`);
    expect(confirm.html).toContain('stops taking payments');
    const deleted = await browser.post(`links/${id}/delete`, { csrf_token: formToken(confirm.html) });
    expect(deleted.status).toBe(303);
    expect((await browser.get(deleted.location as string)).html).toContain('The payment link was deleted.');
    expect((await api('GET', `/v1/payment-links/${id}/`, { auth })).status).toBe(404);
  });
});
