/**
 * The local Secrets Manager endpoint: the AWS SDK client reads and puts values through it, only when
 * signed with the stack's key pair; a reader with a cache age picks a new value up once that age has
 * passed, with the old one as the previous value; the running stack serves its own secrets there and
 * names them to functions, and a persistent stack keeps a value put there across a restart.
 */
import { join } from 'node:path';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCredentials, localEnvironment, localSecretNames } from '../../infra/local/info.ts';
import { freePort } from '../../infra/local/ports.ts';
import { type LocalSecretsManager, startSecretsManager } from '../../infra/local/secrets.ts';
import { newCredentials } from '../../infra/local/state.ts';
import { envNames } from '../../shared/core/config.ts';
import { stageSecret } from '../../shared/core/secrets.ts';
import { eventually } from '../support/eventually.ts';
import { stopCobro } from '../support/global-setup.ts';
import { localInfo } from '../support/stack.ts';
import { readInfo, readJson, stackHarness } from './harness.ts';

const region = 'us-east-1';
const { startIn, tempDir } = stackHarness();

const clientOf = (endpoint: string, credentials: LocalCredentials) =>
  new SecretsManagerClient({
    endpoint,
    region,
    credentials: { accessKeyId: credentials.access_key_id, secretAccessKey: credentials.secret_access_key },
    maxAttempts: 1,
  });

describe('the Secrets Manager endpoint', () => {
  const credentials = newCredentials();
  let endpoint: LocalSecretsManager;
  let client: SecretsManagerClient;

  beforeAll(async () => {
    endpoint = await startSecretsManager({
      port: await freePort(0),
      region,
      credentials,
      secrets: { 'test/signing': { current: 'first value' }, 'test/rotating': { current: 'old value' } },
    });
    client = clientOf(endpoint.url, credentials);
  });

  afterAll(async () => {
    client?.destroy();
    await endpoint?.close();
  });

  it('answers GetSecretValue to the stack key pair only, and says what it cannot find', async () => {
    const got = await client.send(new GetSecretValueCommand({ SecretId: 'test/signing' }));
    expect(got).toMatchObject({
      Name: 'test/signing',
      SecretString: 'first value',
      VersionStages: ['AWSCURRENT'],
    });
    expect(got.CreatedDate).toBeInstanceOf(Date);
    // By ARN too, as functions name secrets when deployed.
    const byArn = await client.send(new GetSecretValueCommand({ SecretId: got.ARN }));
    expect(byArn.SecretString).toBe('first value');

    await expect(
      client.send(new GetSecretValueCommand({ SecretId: 'test/signing', VersionStage: 'AWSPREVIOUS' })),
    ).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(client.send(new GetSecretValueCommand({ SecretId: 'test/nothing' }))).rejects.toMatchObject({
      name: 'ResourceNotFoundException',
    });

    const stranger = clientOf(endpoint.url, newCredentials());
    await expect(
      stranger.send(new GetSecretValueCommand({ SecretId: 'test/signing' })),
    ).rejects.toMatchObject({
      name: 'UnrecognizedClientException',
    });
    stranger.destroy();
    // The right key id with another secret key: the signature does not hold.
    const forger = clientOf(endpoint.url, {
      ...credentials,
      secret_access_key: newCredentials().secret_access_key,
    });
    await expect(forger.send(new GetSecretValueCommand({ SecretId: 'test/signing' }))).rejects.toMatchObject({
      name: 'InvalidSignatureException',
    });
    forger.destroy();
    const unsigned = await fetch(endpoint.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.1',
        'X-Amz-Target': 'secretsmanager.GetSecretValue',
      },
      body: JSON.stringify({ SecretId: 'test/signing' }),
    });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.text()).not.toContain('first value');
  });

  it('a value put is picked up once the cache age has passed, the old one kept as the previous value', {
    timeout: 30_000,
  }, async () => {
    const cacheSeconds = 2;
    process.env.COBRO_TEST_SECRET_ID = 'test/rotating';
    const secret = stageSecret('COBRO_TEST_SECRET_ID', { cacheSeconds, client });
    const firstReadAt = Date.now();
    expect(await secret.values()).toMatchObject({ current: 'old value' });
    expect(await secret.use()).toEqual({ sign: 'old value', verify: ['old value'], open: ['old value'] });

    await client.send(new PutSecretValueCommand({ SecretId: 'test/rotating', SecretString: 'new value' }));
    // Within the cache age the function still holds what it read.
    expect((await secret.values()).current).toBe('old value');

    const seen = await eventually(
      'the new value',
      async () => {
        const values = await secret.values();
        return values.current === 'new value' ? { values, at: Date.now() } : undefined;
      },
      30_000,
    );
    expect(seen.at - firstReadAt).toBeGreaterThanOrEqual(cacheSeconds * 1000);
    expect(seen.values.previous).toBe('old value');
    // Just put: the previous value still signs (functions that have not read the new one could not
    // check it), both verify and both open.
    const use = await secret.use();
    expect(use.sign).toBe('old value');
    expect(use.verify).toEqual(['old value', 'new value']);
    expect(use.open).toEqual(['new value', 'old value']);
  });
});

describe("the running stack's secrets", () => {
  it('are served by its endpoint to its key pair, and named, never given, to functions and local.json', async () => {
    const client = clientOf(localInfo.endpoints.secretsmanager, localInfo.aws_credentials);
    const values = await Promise.all(
      Object.values(localSecretNames).map(
        async (name) => (await client.send(new GetSecretValueCommand({ SecretId: name }))).SecretString ?? '',
      ),
    );
    client.destroy();
    expect(new Set(values).size).toBe(3);
    const environment = localEnvironment(localInfo);
    expect(environment[envNames.tokenSecret]).toBe(localSecretNames.token_secret);
    expect(environment[envNames.fingerprintSecret]).toBe(localSecretNames.fingerprint_secret);
    expect(environment[envNames.webhookKey]).toBe(localSecretNames.webhook_key);
    expect(environment.AWS_ENDPOINT_URL_SECRETS_MANAGER).toBe(localInfo.endpoints.secretsmanager);
    for (const value of values) {
      expect(value.length).toBeGreaterThan(40);
      expect(JSON.stringify(environment)).not.toContain(value);
      expect(JSON.stringify(localInfo)).not.toContain(value);
    }
  });

  it('a persistent stack keeps a value put there, and the one it replaced, across a restart', {
    timeout: 240_000,
  }, async () => {
    const stateDir = tempDir();
    const first = startIn(stateDir);
    await first.ready;
    const info = readInfo(stateDir);
    const before = readJson(join(stateDir, 'persistent.json')).webhook_key;
    const client = clientOf(info.endpoints.secretsmanager, info.aws_credentials);
    await client.send(
      new PutSecretValueCommand({
        SecretId: localSecretNames.webhook_key,
        SecretString: 'a-rotated-webhook-key',
      }),
    );
    client.destroy();
    const kept = readJson<{ webhook_key: string; previous?: Record<string, string> }>(
      join(stateDir, 'persistent.json'),
    );
    expect(kept.webhook_key).toBe('a-rotated-webhook-key');
    expect(kept.previous?.webhook_key).toBe(before);
    expect(await stopCobro(first.child)).toBe(0);

    const second = startIn(stateDir);
    await second.ready;
    const again = readInfo(stateDir);
    const after = clientOf(again.endpoints.secretsmanager, again.aws_credentials);
    const read = (VersionStage: string) =>
      after.send(new GetSecretValueCommand({ SecretId: localSecretNames.webhook_key, VersionStage }));
    expect((await read('AWSCURRENT')).SecretString).toBe('a-rotated-webhook-key');
    expect((await read('AWSPREVIOUS')).SecretString).toBe(before);
    after.destroy();
  });
});
