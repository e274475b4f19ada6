/**
 * Every authentication path (Basic, Api-Key, Bearer, the token endpoint, the 401 bodies) and the
 * modes a credential fixes, through the local gateway against DynamoDB Local.
 */
import { describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../shared/auth/tokens.ts';
import { envNames } from '../../shared/core/config.ts';
import { stageSecret } from '../../shared/core/secrets.ts';
import {
  api,
  apiKey,
  basic,
  bearer,
  clientBasic,
  clientCredentials,
  newAccount,
  tokenFor,
} from '../support/stack.ts';

const keysPath = '/v1/auth/api-keys/';
const masked = (key: string) => `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`;

describe('the three schemes', () => {
  it('Basic, Api-Key and Bearer all answer the masked keys of the account', async () => {
    const account = await newAccount();
    const token = await tokenFor(account);
    for (const auth of [basic(account.testKey), apiKey(account.liveKey), bearer(token)]) {
      const response = await api('GET', keysPath, { auth });
      expect(response.status).toBe(200);
      expect(response.json.test.key).toBe(masked(account.testKey));
      expect(response.json.live.key).toBe(masked(account.liveKey));
      expect(Date.parse(response.json.test.created_at)).not.toBeNaN();
      expect(response.text).not.toContain(account.testKey);
      expect(response.text).not.toContain(account.liveKey);
    }
  });

  it('scheme names are case-insensitive and Basic ignores the password', async () => {
    const account = await newAccount();
    const lower = `basic ${Buffer.from(`${account.testKey}:ignored`).toString('base64')}`;
    expect((await api('GET', keysPath, { auth: lower })).status).toBe(200);
    expect((await api('GET', keysPath, { auth: `API-KEY ${account.testKey}` })).status).toBe(200);
  });
});

describe('401 bodies', () => {
  it('no credentials', async () => {
    const response = await api('GET', keysPath);
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(response.headers.get('www-authenticate')).toContain('Basic');
  });

  it.each([
    ['an unknown scheme', 'Token sk_test_abc'],
    ['a key of the wrong shape', 'Api-Key sk_test_short'],
    ['a key with another prefix', `Api-Key pk_test_${'a'.repeat(32)}`],
    ['Basic that is not base64 of a key', 'Basic !!!'],
    ['a scheme without a value', 'Api-Key'],
  ])('malformed: %s', async (_, auth) => {
    const response = await api('GET', keysPath, { auth });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ detail: 'Invalid key format.' });
  });

  it('a well-formed key that does not exist', async () => {
    const response = await api('GET', keysPath, { auth: apiKey(`sk_live_${'Z'.repeat(32)}`) });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({ detail: 'Invalid API key.' });
  });

  it('a tampered token', async () => {
    const account = await newAccount();
    const token = await tokenFor(account);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '1' })).toString('base64url');
    const response = await api('GET', keysPath, { auth: bearer(`${header}.${forged}.${signature}`) });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({
      detail: 'Given token not valid for any token type',
      code: 'token_not_valid',
      messages: [{ token_class: 'AccessToken', token_type: 'access', message: 'Token is invalid' }],
    });
  });

  it('an expired token', async () => {
    const account = await newAccount();
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    // Signed with the stack's own secret, read through its Secrets Manager endpoint as functions do.
    const { sign } = await stageSecret(envNames.tokenSecret).use();
    const expired = await issueAccessToken(account.developerId, sign, twoHoursAgo);
    const response = await api('GET', keysPath, { auth: bearer(expired.access_token) });
    expect(response.status).toBe(401);
    expect(response.json.code).toBe('token_not_valid');
    expect(response.json.messages[0].message).toBe('Token is expired');
  });

  it('a token signed with another secret', async () => {
    const account = await newAccount();
    const other = await issueAccessToken(
      account.developerId,
      'not-the-secret-of-this-stack-at-all!!',
      new Date(),
    );
    const response = await api('GET', keysPath, { auth: bearer(other.access_token) });
    expect(response.status).toBe(401);
    expect(response.json.code).toBe('token_not_valid');
  });
});

describe('POST /authentication/token/', () => {
  it('issues an HS256 JWT valid for an hour', async () => {
    const account = await newAccount();
    const response = await api('POST', '/authentication/token/', {
      body: clientCredentials(account),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.json).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'read write groups',
    });
    const [header] = String(response.json.access_token).split('.');
    expect(JSON.parse(Buffer.from(header as string, 'base64url').toString()).alg).toBe('HS256');
  });

  it('takes a form body, client credentials as HTTP Basic, and JSON labelled as a form', async () => {
    const account = await newAccount();
    const form = new URLSearchParams(clientCredentials(account)).toString();
    const formType = { 'Content-Type': 'application/x-www-form-urlencoded' };
    expect((await api('POST', '/authentication/token/', { rawBody: form, headers: formType })).status).toBe(
      200,
    );
    const viaBasic = await api('POST', '/authentication/token/', {
      rawBody: 'grant_type=client_credentials',
      headers: {
        ...formType,
        Authorization: clientBasic(account),
      },
    });
    expect(viaBasic.status).toBe(200);
    const mislabelled = await api('POST', '/authentication/token/', {
      rawBody: JSON.stringify(clientCredentials(account)),
      headers: formType,
    });
    expect(mislabelled.status).toBe(200);
  });

  it('goes by the body whatever the Content-Type, and answers bad bodies as OAuth invalid_request', async () => {
    const account = await newAccount();
    const form = new URLSearchParams(clientCredentials(account)).toString();
    for (const type of ['application/json', 'text/plain']) {
      const response = await api('POST', '/authentication/token/', {
        rawBody: form,
        headers: { 'Content-Type': type },
      });
      expect(response.status).toBe(200);
    }
    const broken = await api('POST', '/authentication/token/', {
      rawBody: '{"grant_type":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.code).toBe('invalid_request');
  });

  it('refuses client credentials sent both as HTTP Basic and in the body (RFC 6749 §2.3.1)', async () => {
    const account = await newAccount();
    const response = await api('POST', '/authentication/token/', {
      body: clientCredentials(account),
      headers: {
        Authorization: clientBasic(account),
      },
    });
    expect(response.status).toBe(400);
    expect(response.json.error.code).toBe('invalid_request');
  });

  it('a wrong client secret, an unknown client and an id no client has are invalid_client', async () => {
    const account = await newAccount();
    for (const body of [
      {
        grant_type: 'client_credentials',
        client_id: account.clientId,
        client_secret: `${account.clientSecret}x`,
      },
      { grant_type: 'client_credentials', client_id: 'cl_nobody', client_secret: account.clientSecret },
      { grant_type: 'client_credentials', client_id: account.clientId },
      // An id far longer than any client's (over DynamoDB's key size): no client, never a 500.
      { grant_type: 'client_credentials', client_id: 'x'.repeat(3000), client_secret: account.clientSecret },
    ]) {
      const response = await api('POST', '/authentication/token/', { body });
      expect(response.status).toBe(401);
      expect(response.json).toEqual({
        error: { code: 'invalid_client', type: 'authentication_error', message: expect.any(String) },
      });
    }
  });

  it('another grant type is unsupported_grant_type; a missing one is invalid_request', async () => {
    const account = await newAccount();
    const password = await api('POST', '/authentication/token/', {
      body: { grant_type: 'password', client_id: account.clientId, client_secret: account.clientSecret },
    });
    expect(password.status).toBe(400);
    expect(password.json.error.code).toBe('unsupported_grant_type');
    const missing = await api('POST', '/authentication/token/', { body: { client_id: account.clientId } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.code).toBe('invalid_request');
  });
});

describe('modes: a key fixes the mode, a bearer token lets the test parameter choose', () => {
  it('a key fixes the mode: an agreeing test parameter passes, a contradicting one is 403', async () => {
    const account = await newAccount();
    expect((await api('GET', `${keysPath}?test=true`, { auth: apiKey(account.testKey) })).status).toBe(200);
    expect((await api('GET', `${keysPath}?test=false`, { auth: apiKey(account.liveKey) })).status).toBe(200);
    for (const [key, query] of [
      [account.testKey, 'test=false'],
      [account.liveKey, 'test=true'],
    ] as const) {
      const response = await api('GET', `${keysPath}?${query}`, { auth: apiKey(key) });
      expect(response.status).toBe(403);
      expect(response.json).toMatchObject({ code: 403, type: 'error', title: expect.any(String) });
    }
  });

  it('a bearer token lets the test parameter choose; a non-boolean one is 400', async () => {
    const account = await newAccount();
    const auth = bearer(await tokenFor(account));
    expect((await api('GET', `${keysPath}?test=true`, { auth })).status).toBe(200);
    expect((await api('GET', `${keysPath}?test=false`, { auth })).status).toBe(200);
    const bad = await api('GET', `${keysPath}?test=maybe`, { auth });
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe(400);
  });

  it("another account's key sees only its own account", async () => {
    const first = await newAccount('first');
    const second = await newAccount('second');
    const response = await api('GET', keysPath, { auth: apiKey(second.testKey) });
    expect(response.json.test.key).toBe(masked(second.testKey));
    expect(response.json.test.key).not.toBe(masked(first.testKey));
    expect(response.json.live.key).not.toBe(masked(first.liveKey));
  });
});
