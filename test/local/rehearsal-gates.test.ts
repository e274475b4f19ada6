/**
 * Rehearsal mode's IAM: the policy evaluation itself, and the gates in front of the real S3 and SES
 * emulators, the local bus and the local Secrets Manager endpoint, called with the AWS SDK as a
 * function calls them. A refusal must reach the SDK as the error the real service gives.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, startSes } from '../../infra/local/emulators.ts';
import { startEventBus } from '../../infra/local/event-bus.ts';
import { type Caller, type Gate, startGate } from '../../infra/local/rehearsal/gates.ts';
import { allowed } from '../../infra/local/rehearsal/iam.ts';
import type { Statement } from '../../infra/local/rehearsal/template.ts';
import { startSecretsManager } from '../../infra/local/secrets.ts';

const table = 'arn:aws:dynamodb:us-east-1:000000000000:table/cobro-local';

describe('policy evaluation', () => {
  const read: Statement = {
    Effect: 'Allow',
    Action: ['dynamodb:GetItem', 'dynamodb:Query', 's3:GetObject*'],
    Resource: [table, `${table}/index/*`, 'arn:aws:s3:::media/*'],
  };

  it('matches actions case-insensitively with wildcards, resources exactly or by wildcard', () => {
    expect(allowed([read], { action: 'dynamodb:Query', resource: `${table}/index/gsi1` })).toBe(true);
    expect(allowed([read], { action: 'DynamoDB:getitem', resource: table })).toBe(true);
    expect(allowed([read], { action: 'dynamodb:PutItem', resource: table })).toBe(false);
    expect(allowed([read], { action: 'dynamodb:Query', resource: `${table}-other` })).toBe(false);
    expect(allowed([read], { action: 's3:GetObjectVersion', resource: 'arn:aws:s3:::media/a/b.png' })).toBe(
      true,
    );
    expect(allowed([read], { action: 's3:GetObject', resource: 'arn:aws:s3:::media' })).toBe(false);
  });

  it('an explicit Deny wins, and nothing allows by default', () => {
    const deny: Statement = { Effect: 'Deny', Action: ['dynamodb:*'], Resource: [`${table}/index/*`] };
    expect(allowed([read, deny], { action: 'dynamodb:Query', resource: `${table}/index/gsi1` })).toBe(false);
    expect(allowed([read, deny], { action: 'dynamodb:Query', resource: table })).toBe(true);
    expect(allowed([], { action: 'dynamodb:Query', resource: table })).toBe(false);
  });

  it('evaluates StringEquals ses:FromAddress and ForAllValues:StringLike dynamodb:LeadingKeys', () => {
    const mail: Statement = {
      Effect: 'Allow',
      Action: ['ses:SendEmail'],
      Resource: ['arn:aws:ses:us-east-1:000000000000:identity/*'],
      Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@cobro.local' } },
    };
    const identity = 'arn:aws:ses:us-east-1:000000000000:identity/cobro.local';
    const from = (address: string) => ({ 'ses:FromAddress': [address] });
    expect(
      allowed([mail], { action: 'ses:SendEmail', resource: identity, context: from('no-reply@cobro.local') }),
    ).toBe(true);
    expect(
      allowed([mail], { action: 'ses:SendEmail', resource: identity, context: from('ceo@cobro.local') }),
    ).toBe(false);
    expect(allowed([mail], { action: 'ses:SendEmail', resource: identity })).toBe(false);
    const own: Statement = {
      Effect: 'Allow',
      Action: ['dynamodb:GetItem'],
      Resource: [table],
      Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['dev#7#*'] } },
    };
    const keys = (...values: string[]) => ({ 'dynamodb:LeadingKeys': values });
    expect(allowed([own], { action: 'dynamodb:GetItem', resource: table, context: keys('dev#7#plan') })).toBe(
      true,
    );
    expect(allowed([own], { action: 'dynamodb:GetItem', resource: table, context: keys('dev#8#plan') })).toBe(
      false,
    );
  });
});

describe('the gates, called through the AWS SDK', () => {
  const region = 'us-east-1';
  const account = '000000000000';
  const stack = { access_key_id: 'stack-key', secret_access_key: 'stack-secret' };
  const fn = { accessKeyId: 'SomeRole.SomeFn', secret: 'fn-secret' };
  const statements: Statement[] = [
    { Effect: 'Allow', Action: ['s3:GetObject*'], Resource: ['arn:aws:s3:::media/*'] },
    { Effect: 'Allow', Action: ['s3:PutObject'], Resource: ['arn:aws:s3:::media/allowed/*'] },
    {
      Effect: 'Allow',
      Action: ['ses:SendEmail', 'ses:SendRawEmail'],
      Resource: [`arn:aws:ses:${region}:${account}:identity/*`],
      Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@cobro.local' } },
    },
    {
      Effect: 'Allow',
      Action: ['events:PutEvents'],
      Resource: [`arn:aws:events:${region}:${account}:event-bus/cobro-local`],
    },
    {
      Effect: 'Allow',
      Action: ['secretsmanager:GetSecretValue'],
      Resource: [`arn:aws:secretsmanager:${region}:${account}:secret:cobro-local/token-secret-local`],
    },
  ];
  const caller: Caller = { accessKeyId: fn.accessKeyId, functionId: 'SomeFn', role: 'SomeRole', statements };
  const closers: (() => Promise<void>)[] = [];
  const gates = {} as Record<'s3' | 'ses' | 'events' | 'secretsmanager', string>;
  const denials: string[] = [];
  const s3Dir = mkdtempSync(join(tmpdir(), 'cobro-gates-'));
  const s3Accounts = createRequire(import.meta.url)('@20minutes/s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void; revokeAccessKey(id: string): void };
  };

  beforeAll(async () => {
    s3Accounts.DUMMY_ACCOUNT.createKeyPair(fn.accessKeyId, fn.secret);
    const s3 = await startS3({ port: 0, directory: s3Dir, bucket: 'media' });
    const ses = await startSes(0);
    const bus = await startEventBus(0, '.', { region, targetsFor: () => [] });
    const secrets = await startSecretsManager({
      port: 0,
      region,
      credentials: stack,
      otherCredentials: (id) =>
        id === fn.accessKeyId ? { access_key_id: id, secret_access_key: fn.secret } : undefined,
      secrets: {
        'cobro-local/token-secret': { current: 'token' },
        'cobro-local/webhook-key': { current: 'hook' },
      },
    });
    closers.push(s3.close, ses.close, bus.close, secrets.close);
    const targets = {
      s3: `http://127.0.0.1:${s3.port}`,
      ses: `http://127.0.0.1:${ses.port}`,
      events: bus.url,
      secretsmanager: secrets.url,
    };
    for (const service of Object.keys(targets) as (keyof typeof targets)[]) {
      const gate: Gate = await startGate({
        service,
        target: targets[service],
        region,
        account,
        stackKeyId: stack.access_key_id,
        callerOf: (id) => (id === fn.accessKeyId ? caller : undefined),
        onDenied: ({ request }) => denials.push(`${request.action} ${request.resource}`),
      });
      closers.push(gate.close);
      gates[service] = gate.url;
    }
  });
  afterAll(async () => {
    for (const close of closers) await close();
    s3Accounts.DUMMY_ACCOUNT.revokeAccessKey(fn.accessKeyId);
    rmSync(s3Dir, { recursive: true, force: true });
  });

  const client = <T>(make: new (config: object) => T, endpoint: string): T =>
    new make({
      region,
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: fn.accessKeyId, secretAccessKey: fn.secret },
      maxAttempts: 1,
    });

  it('S3: an object the role may write is stored and read back; another key is AccessDenied', async () => {
    const s3 = client(S3Client, gates.s3);
    await s3.send(new PutObjectCommand({ Bucket: 'media', Key: 'allowed/a.txt', Body: 'hello' }));
    const got = await s3.send(new GetObjectCommand({ Bucket: 'media', Key: 'allowed/a.txt' }));
    expect(await got.Body?.transformToString()).toBe('hello');
    await expect(
      s3.send(new PutObjectCommand({ Bucket: 'media', Key: 'elsewhere/a.txt', Body: 'no' })),
    ).rejects.toMatchObject({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
    expect(denials).toContain('s3:PutObject arn:aws:s3:::media/elsewhere/a.txt');
  });

  it('SES: the allowed sender sends; any other sender is AccessDenied (the FromAddress condition)', async () => {
    const ses = client(SESClient, gates.ses);
    const mail = (from: string) =>
      new SendEmailCommand({
        Source: from,
        Destination: { ToAddresses: ['someone@example.com'] },
        Message: { Subject: { Data: 'hi' }, Body: { Text: { Data: 'hello' } } },
      });
    expect((await ses.send(mail('no-reply@cobro.local'))).MessageId).toBeTruthy();
    await expect(ses.send(mail('Boss <ceo@cobro.local>'))).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('EventBridge: PutEvents on the granted bus passes, on another bus is AccessDeniedException', async () => {
    const events = client(EventBridgeClient, gates.events);
    const put = (bus: string) =>
      new PutEventsCommand({
        Entries: [{ EventBusName: bus, Source: 'cobro', DetailType: 'x', Detail: '{}' }],
      });
    expect((await events.send(put('cobro-local'))).FailedEntryCount).toBe(0);
    await expect(events.send(put('default'))).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });

  it('Secrets Manager: the granted secret is read (its signature checked); another is AccessDeniedException', async () => {
    const secrets = client(SecretsManagerClient, gates.secretsmanager);
    const value = await secrets.send(new GetSecretValueCommand({ SecretId: 'cobro-local/token-secret' }));
    expect(value.SecretString).toBe('token');
    await expect(
      secrets.send(new GetSecretValueCommand({ SecretId: 'cobro-local/webhook-key' })),
    ).rejects.toMatchObject({ name: 'AccessDeniedException' });
    // A key no function holds is refused before any policy is read.
    const stranger = new SecretsManagerClient({
      region,
      endpoint: gates.secretsmanager,
      credentials: { accessKeyId: 'nobody', secretAccessKey: 'x' },
      maxAttempts: 1,
    });
    await expect(
      stranger.send(new GetSecretValueCommand({ SecretId: 'cobro-local/token-secret' })),
    ).rejects.toMatchObject({ name: 'AccessDeniedException' });
  });
});
