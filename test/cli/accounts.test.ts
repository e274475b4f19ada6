/** `cobro accounts create` against the running test stack, then its credentials through the API. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLocalInfo } from '../../infra/local/info.ts';
import { writeLocalInfo } from '../../infra/local/stack.ts';
import { cli, expectCliRefusal } from '../support/cli.ts';
import { api, apiKey, stateDir } from '../support/stack.ts';

describe('accounts create', () => {
  const email = `cli-${process.pid}-${Date.now()}@example.com`;

  it('prints one JSON object whose credentials work', async () => {
    const { stdout } = await cli('accounts', 'create', '--name', 'CLI Shop', '--email', email, '--json');
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(
      ['client_id', 'client_secret', 'developer_id', 'email', 'live_key', 'name', 'test_key'].sort(),
    );
    expect(Number.isInteger(created.developer_id)).toBe(true);
    expect(created).toMatchObject({ name: 'CLI Shop', email });
    const keys = await api('GET', '/v1/auth/api-keys/', { auth: apiKey(created.live_key) });
    expect(keys.status).toBe(200);
    const token = await api('POST', '/authentication/token/', {
      body: {
        grant_type: 'client_credentials',
        client_id: created.client_id,
        client_secret: created.client_secret,
      },
    });
    expect(token.status).toBe(200);
  });

  it('refuses an e-mail already taken, and bad input, with a message and a non-zero exit', async () => {
    await expectCliRefusal(
      ['accounts', 'create', '--name', 'Again', '--email', email.toUpperCase()],
      1,
      'already exists',
    );
    await expectCliRefusal(
      ['accounts', 'create', '--name', 'X', '--email', 'not-an-email'],
      2,
      'not a valid e-mail',
    );
    await expectCliRefusal(['accounts', 'create', '--email', 'a@b.co'], 2, 'name is required');
  });

  it('refuses to write when the stack local.json describes is not running', async () => {
    const stale = mkdtempSync(join(tmpdir(), 'cobro-stale-'));
    try {
      const info = readLocalInfo(stateDir);
      writeLocalInfo(stale, {
        ...info,
        api_url: 'http://127.0.0.1:9',
        health_url: 'http://127.0.0.1:9/health',
      });
      const args = ['accounts', 'create', '--name', 'X', '--email', 'stale@example.com'];
      await expectCliRefusal(args, 1, 'no local stack answers', stale);
    } finally {
      rmSync(stale, { recursive: true, force: true });
    }
  });
});

describe('accounts update', () => {
  it('sets the profile every plan shows, and clears it again', async () => {
    const email = `cli-profile-${process.pid}-${Date.now()}@example.com`;
    const created = JSON.parse(
      (await cli('accounts', 'create', '--name', 'Profile Shop', '--email', email, '--json')).stdout,
    );
    const auth = apiKey(created.test_key);
    const plan = await api('POST', '/v1/plans/', {
      auth,
      body: { name: 'Monthly', currency: 'USD', amount: '5.00', interval: 'month', interval_count: 1 },
    });
    expect(plan.status).toBe(201);
    const information = async () =>
      (await api('GET', `/v1/plans/${plan.json.data.id}/`, { auth })).json.information;

    expect(await information()).toMatchObject({
      email,
      company_name: 'Profile Shop',
      credit_card_description: 'Profile Shop',
      page: null,
      image_dev: null,
    });

    const { stdout } = await cli(
      'accounts',
      'update',
      '--id',
      String(created.developer_id),
      '--company-name',
      'Profile Shop S.A.',
      '--page',
      'https://shop.example.com',
      '--logo',
      'https://shop.example.com/logo.png',
      '--statement-descriptor',
      'PROFILESHOP',
      '--language',
      'es',
      '--json',
    );
    expect(JSON.parse(stdout)).toMatchObject({
      developer_id: created.developer_id,
      company_name: 'Profile Shop S.A.',
      page: 'https://shop.example.com',
      logo: 'https://shop.example.com/logo.png',
      statement_descriptor: 'PROFILESHOP',
      language: 'es',
    });
    expect(await information()).toMatchObject({
      company_name: 'Profile Shop S.A.',
      page: 'https://shop.example.com',
      image_dev: 'https://shop.example.com/logo.png',
      credit_card_description: 'PROFILESHOP',
    });

    // Only the options given change; an empty value clears its field.
    await cli('accounts', 'update', '--id', String(created.developer_id), '--statement-descriptor', '');
    expect(await information()).toMatchObject({
      company_name: 'Profile Shop S.A.',
      page: 'https://shop.example.com',
      credit_card_description: 'Profile Shop S.A.',
    });
  });

  it('refuses a missing or unknown account and bad values', async () => {
    await expectCliRefusal(['accounts', 'update', '--company-name', 'X'], 2, 'id is required');
    await expectCliRefusal(
      ['accounts', 'update', '--id', 'abc', '--page', 'https://x.example'],
      2,
      'positive integer',
    );
    await expectCliRefusal(['accounts', 'update', '--id', '1'], 2, 'nothing to update');
    await expectCliRefusal(
      ['accounts', 'update', '--id', '1', '--page', 'not a url'],
      2,
      'page: not an http(s) URL',
    );
    await expectCliRefusal(['accounts', 'update', '--id', '1', '--language', 'fr'], 2, 'language: en or es');
    await expectCliRefusal(
      ['accounts', 'update', '--id', '999999999', '--page', 'https://x.example'],
      1,
      'There is no account with this id.',
    );
  });
});

describe('accounts rotate-client-secret', () => {
  it('prints a new secret once; the old one stops at once, a token issued before keeps working', async () => {
    const email = `cli-secret-${process.pid}-${Date.now()}@example.com`;
    const created = JSON.parse(
      (await cli('accounts', 'create', '--name', 'Secret Shop', '--email', email, '--json')).stdout,
    );
    const tokenRequest = (secret: string) =>
      api('POST', '/authentication/token/', {
        body: { grant_type: 'client_credentials', client_id: created.client_id, client_secret: secret },
      });
    const before = await tokenRequest(created.client_secret);
    expect(before.status).toBe(200);

    const { stdout } = await cli(
      'accounts',
      'rotate-client-secret',
      '--id',
      String(created.developer_id),
      '--json',
    );
    const rotated = JSON.parse(stdout);
    expect(Object.keys(rotated).sort()).toEqual(['client_id', 'client_secret']);
    expect(rotated.client_id).toBe(created.client_id);
    expect(rotated.client_secret).toMatch(/^cs_[A-Za-z0-9]{48}$/);
    expect(rotated.client_secret).not.toBe(created.client_secret);

    const old = await tokenRequest(created.client_secret);
    expect(old.status).toBe(401);
    expect(old.json.error.code).toBe('invalid_client');
    expect((await tokenRequest(rotated.client_secret)).status).toBe(200);
    const earlier = await api('GET', '/v1/auth/api-keys/', { auth: `Bearer ${before.json.access_token}` });
    expect(earlier.status).toBe(200);
  });

  it('refuses a missing or unknown account', async () => {
    await expectCliRefusal(['accounts', 'rotate-client-secret'], 2, 'id is required');
    await expectCliRefusal(
      ['accounts', 'rotate-client-secret', '--id', '999999999'],
      1,
      'There is no account with this id.',
    );
  });
});
