/**
 * The clients and settings domain functions take, built once per module (cold start) and passed
 * in, so tests can hand in another clock or table without mocking modules.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { envNames, requireEnv } from '../core/config.ts';

export interface Deps {
  db: DynamoDBDocumentClient;
  table: string;
  clock: () => Date;
}

/** A new DynamoDB document client, as cobro writes items: an undefined attribute is left out. */
export const newDocumentClient = (): DynamoDBDocumentClient =>
  DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });

let sharedDb: DynamoDBDocumentClient | undefined;

/** One DynamoDB document client per process. */
export function documentClient(): DynamoDBDocumentClient {
  sharedDb ??= newDocumentClient();
  return sharedDb;
}

/** The dependencies of a function running in Lambda (or the local stack). */
export function makeDeps(): Deps {
  return { db: documentClient(), table: requireEnv(envNames.table), clock: () => new Date() };
}
