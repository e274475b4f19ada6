/**
 * A persisted local table made before an index existed gets it when the stack starts again
 * (ensureTable), and the index is then queryable: `cli reindex` gives older records their keys in it.
 */
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable, localClient } from '../../infra/local/dynamodb.ts';
import { tableDefinition } from '../../shared/db/table.ts';
import { localInfo } from '../support/stack.ts';

describe('a local table made before an index', () => {
  it('gets every index it lacks when the stack starts on it, and the index answers queries', async () => {
    const endpoint = localInfo.endpoints.dynamodb;
    const credentials = localInfo.aws_credentials;
    const client = localClient(endpoint, credentials);
    const tableName = `upgrade-${process.pid}-${Date.now()}`;
    const older = tableDefinition.globalSecondaryIndexes.filter((index) => index.indexName !== 'gsi3');
    const attributes = ['pk', 'sk', ...older.flatMap((index) => [index.partitionKey, index.sortKey])];
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamView },
        AttributeDefinitions: attributes.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: older.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    );
    try {
      const indexes = async () =>
        (
          (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table
            ?.GlobalSecondaryIndexes ?? []
        )
          .map((index) => index.IndexName)
          .sort();
      expect(await indexes()).toEqual(['gsi1', 'gsi2']);
      await ensureTable(endpoint, tableName, credentials);
      expect(await indexes()).toEqual(['gsi1', 'gsi2', 'gsi3']);
      // (ensureTable waits until the new index answers, so the table is usable right away.)
      // Starting again on the upgraded table changes nothing.
      await ensureTable(endpoint, tableName, credentials);
      expect(await indexes()).toEqual(['gsi1', 'gsi2', 'gsi3']);
      const documents = DynamoDBDocumentClient.from(client);
      await documents.send(
        new PutCommand({
          TableName: tableName,
          Item: { pk: 'A', sk: 'B', gsi3pk: 'CUSTOMER', gsi3sk: 'CHARGE#1' },
        }),
      );
      const found = await documents.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :pk',
          ExpressionAttributeValues: { ':pk': 'CUSTOMER' },
        }),
      );
      expect(found.Items?.map((item) => item.pk)).toEqual(['A']);
    } finally {
      await client.send(new DeleteTableCommand({ TableName: tableName }));
      client.destroy();
    }
  });
});
