/**
 * DynamoDB Local checks no signature (the access key id alone opens a database), so the store is kept
 * unreadable without the stack's own access key id: DynamoDB Local keeps one database per key id.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable, localClient, startDynamo } from '../../infra/local/dynamodb.ts';
import type { LocalCredentials } from '../../infra/local/info.ts';
import { freePort } from '../../infra/local/ports.ts';
import { legacyAccessKeyId, newCredentials } from '../../infra/local/state.ts';
import { readInfo, readJson, stackHarness } from './harness.ts';

const { running, startIn, tempDir } = stackHarness();

const legacyKey: LocalCredentials = {
  access_key_id: legacyAccessKeyId,
  secret_access_key: legacyAccessKeyId,
};

async function tablesSeenWith(endpoint: string, credentials: LocalCredentials): Promise<string[]> {
  const client = localClient(endpoint, credentials);
  try {
    return (await client.send(new ListTablesCommand({}))).TableNames ?? [];
  } finally {
    client.destroy();
  }
}

describe('the local store', () => {
  it('shows its table only to requests signed with the stack key, and no web page may read it', {
    timeout: 120_000,
  }, async () => {
    const { stateDir, info } = await running();
    const endpoint = info.endpoints.dynamodb;

    expect(info.aws_credentials.access_key_id).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(info.aws_credentials.access_key_id).not.toBe(legacyAccessKeyId);
    expect(readJson(join(stateDir, 'persistent.json')).aws_credentials).toEqual(info.aws_credentials);

    expect(await tablesSeenWith(endpoint, info.aws_credentials)).toContain(info.table);
    expect(await tablesSeenWith(endpoint, legacyKey)).toEqual([]);
    expect(await tablesSeenWith(endpoint, newCredentials())).toEqual([]);

    // No CORS allow-origin, on a request or on a preflight: a web page cannot read the answers.
    const signedElsewhere = await fetch(endpoint, {
      method: 'POST',
      headers: {
        Origin: 'http://evil.example',
        'Content-Type': 'application/x-amz-json-1.0',
        'X-Amz-Target': 'DynamoDB_20120810.ListTables',
        Authorization: `AWS4-HMAC-SHA256 Credential=${info.aws_credentials.access_key_id}/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00`,
      },
      body: '{}',
    });
    expect(signedElsewhere.status).toBe(200);
    expect(signedElsewhere.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(endpoint, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://evil.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,x-amz-target',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();

    // The S3 emulator knows the stack's key pair and no longer the fixed one.
    const s3 = (credentials: LocalCredentials) =>
      new S3Client({
        endpoint: info.endpoints.s3,
        region: info.region,
        forcePathStyle: true,
        credentials: {
          accessKeyId: credentials.access_key_id,
          secretAccessKey: credentials.secret_access_key,
        },
      });
    const own = s3(info.aws_credentials);
    await own.send(
      new PutObjectCommand({
        Bucket: info.media_bucket,
        Key: 'probe.txt',
        Body: 'hello',
        ContentType: 'text/plain',
      }),
    );
    const object = await own.send(new GetObjectCommand({ Bucket: info.media_bucket, Key: 'probe.txt' }));
    expect(await object.Body?.transformToString()).toBe('hello');
    await expect(
      s3(legacyKey).send(new PutObjectCommand({ Bucket: info.media_bucket, Key: 'x.txt', Body: 'x' })),
    ).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
  });

  it('moves data stored under the old fixed key to the stack key on first start', {
    timeout: 120_000,
  }, async () => {
    const stateDir = tempDir();
    const dataDir = join(stateDir, 'dynamodb');
    mkdirSync(dataDir, { recursive: true });
    // A checkout from before: its database under S3RVER, its secrets in local.json.
    const port = await freePort(0);
    const old = await startDynamo({ port, dataDir, credentials: legacyKey, stateDir });
    try {
      await ensureTable(old.endpoint, 'cobro-local', legacyKey);
      const db = DynamoDBDocumentClient.from(localClient(old.endpoint, legacyKey));
      await db.send(
        new PutCommand({ TableName: 'cobro-local', Item: { pk: 'KEPT', sk: 'KEPT', value: 42 } }),
      );
      db.destroy();
    } finally {
      await old.stop();
    }
    writeFileSync(
      join(stateDir, 'local.json'),
      JSON.stringify({
        token_secret: 'legacy-token-secret',
        fingerprint_secret: 'legacy-fingerprint-secret',
      }),
    );

    const started = startIn(stateDir);
    await started.ready;
    const info = readInfo(stateDir);
    const persistent = readJson(join(stateDir, 'persistent.json'));
    expect(persistent.token_secret).toBe('legacy-token-secret');
    expect(persistent.fingerprint_secret).toBe('legacy-fingerprint-secret');
    const db = DynamoDBDocumentClient.from(localClient(info.endpoints.dynamodb, info.aws_credentials));
    const kept = await db.send(new GetCommand({ TableName: info.table, Key: { pk: 'KEPT', sk: 'KEPT' } }));
    db.destroy();
    expect(kept.Item?.value).toBe(42);
    expect(await tablesSeenWith(info.endpoints.dynamodb, legacyKey)).toEqual([]);
  });
});
