/** The authorizer's policies, invoked directly with the event API Gateway sends, against DynamoDB Local. */
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount, type TestAccount, tokenFor, useLocalEnvironment } from '../../test/support/stack.ts';

const methodArn = 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/GET/v1/auth/api-keys';
let handler: typeof import('./authorize.ts').handler;
let account: TestAccount;

const event = (authorization?: string) =>
  ({
    type: 'REQUEST',
    methodArn,
    headers: authorization ? { Authorization: authorization } : {},
  }) as unknown as APIGatewayRequestAuthorizerEvent;

beforeAll(async () => {
  useLocalEnvironment();
  ({ handler } = await import('./authorize.ts'));
  account = await newAccount('authorizer');
});

describe('authorizer', () => {
  it('allows a key for the whole stage (the cached answer serves every route) with its account and mode', async () => {
    const result = await handler(event(`Api-Key ${account.liveKey}`));
    expect(result.principalId).toBe(String(account.developerId));
    expect(result.policyDocument.Statement).toEqual([
      {
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123/prod/*',
      },
    ]);
    expect(result.context).toEqual({
      developer_id: String(account.developerId),
      credential: 'key',
      mode: 'live',
    });
  });

  it('allows a token without fixing a mode', async () => {
    const result = await handler(event(`Bearer ${await tokenFor(account)}`));
    expect(result.context).toMatchObject({ credential: 'token', mode: 'any' });
  });

  it('denies with the exact 401 body in its context', async () => {
    for (const [header, detail] of [
      [undefined, 'Authentication credentials were not provided.'],
      ['Api-Key nope', 'Invalid key format.'],
      [`Api-Key sk_live_${'x'.repeat(32)}`, 'Invalid API key.'],
    ] as const) {
      const result = await handler(event(header));
      expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
      expect(JSON.parse(String(result.context?.body))).toEqual({ detail });
    }
  });
});

describe('header names', () => {
  it('finds Authorization whatever its case', async () => {
    for (const name of ['authorization', 'AUTHORIZATION']) {
      const result = await handler({
        type: 'REQUEST',
        methodArn,
        headers: { [name]: `Api-Key ${account.testKey}` },
      } as unknown as APIGatewayRequestAuthorizerEvent);
      expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    }
  });
});
