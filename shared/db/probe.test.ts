/** The table probe behind /health, against DynamoDB Local: ok, an error answer, and no answer. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { useLocalEnvironment } from '../../test/support/stack.ts';
import { makeDeps } from './deps.ts';
import { probeTable } from './probe.ts';

beforeAll(() => useLocalEnvironment());

describe('probeTable', () => {
  it('is ok when the table answers', async () => {
    expect(await probeTable(makeDeps(), 1000)).toBe('ok');
  });

  it('is error when DynamoDB answers with one (a table that does not exist)', async () => {
    expect(await probeTable({ ...makeDeps(), table: 'no-such-table' }, 1000)).toBe('error');
  });

  it('is unreachable when nothing answers', async () => {
    const nowhere = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: 'http://127.0.0.1:9', maxAttempts: 1 }),
    );
    expect(await probeTable({ ...makeDeps(), db: nowhere }, 1000)).toBe('unreachable');
  });
});
