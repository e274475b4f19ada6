/**
 * What suites use to reach the stack the global setup started: its URL, its local.json, an
 * environment pointing the AWS SDK at it, and fresh accounts.
 */
import { beforeAll, inject } from 'vitest';
import { localEnvironment, readLocalInfo } from '../../infra/local/info.ts';
import { createAccount } from '../../shared/accounts/repository.ts';
import { makeDeps } from '../../shared/db/deps.ts';

export const apiUrl = inject('apiUrl');
export const stateDir = inject('stateDir');
export const localInfo = readLocalInfo(stateDir);

/** Points this worker's AWS SDK clients and handler modules at the test stack. */
export function useLocalEnvironment(): void {
  Object.assign(process.env, localEnvironment(localInfo));
}

let sequence = 0;

/** A new account with unique e-mail, created through the same repository the CLI uses. */
export async function newAccount(label = 'merchant') {
  useLocalEnvironment();
  sequence += 1;
  const unique = `${label}-${process.pid}-${Date.now()}-${sequence}`;
  const created = await createAccount(makeDeps(), { name: `Test ${label}`, email: `${unique}@example.com` });
  return {
    developerId: created.account.developer_id,
    email: created.account.email,
    testKey: created.testKey,
    liveKey: created.liveKey,
    clientId: created.account.client_id,
    clientSecret: created.clientSecret,
  };
}

export type TestAccount = Awaited<ReturnType<typeof newAccount>>;

/** An account and its test key as an Api-Key header, the credential most suites act with. */
export interface Merchant {
  account: TestAccount;
  auth: string;
}

/** A new account and its test key as an Api-Key header. */
export async function newMerchant(label?: string): Promise<Merchant> {
  const account = await newAccount(label);
  return { account, auth: apiKey(account.testKey) };
}

/**
 * A merchant shared by the tests of the enclosing describe block, made in its beforeAll: read its
 * `account` and `auth` inside tests and hooks, not while the block is collected.
 */
export function suiteMerchant(label: string): Merchant {
  const merchant = {} as Merchant;
  beforeAll(async () => {
    Object.assign(merchant, await newMerchant(label));
  });
  return merchant;
}

/** A request to the test stack; `auth` is a full Authorization header value. */
export async function api(
  method: string,
  path: string,
  options: { auth?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) headers.Authorization = options.auth;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(`${apiUrl}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary paths of the answered JSON
  return { status: response.status, headers: response.headers, text, json: json as Record<string, any> };
}

export const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
export const apiKey = (key: string) => `Api-Key ${key}`;
export const bearer = (token: string) => `Bearer ${token}`;

/** The body of a client-credentials token request for an account. */
export const clientCredentials = (account: TestAccount) => ({
  grant_type: 'client_credentials',
  client_id: account.clientId,
  client_secret: account.clientSecret,
});

/** The account's OAuth client as an HTTP Basic header (RFC 6749 §2.3.1). */
export const clientBasic = (account: TestAccount) =>
  `Basic ${Buffer.from(`${account.clientId}:${account.clientSecret}`).toString('base64')}`;

/** An access token for an account, from the token endpoint. */
export async function tokenFor(account: TestAccount): Promise<string> {
  const response = await api('POST', '/authentication/token/', { body: clientCredentials(account) });
  if (response.status !== 200) throw new Error(`token request failed: ${response.text}`);
  return response.json.access_token as string;
}
