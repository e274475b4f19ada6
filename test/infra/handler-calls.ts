/**
 * What a handler's code can call, read from its bundle: esbuild bundles the handler as the CDK app
 * does but leaves the AWS SDK out and does not minify, so the bundle's imports from `@aws-sdk/*`
 * name every SDK command reachable from the handler after tree shaking, and the index names it
 * queries appear as string literals. It errs wide (a command reachable only on a path the handler
 * never takes still counts), so it bounds a policy from above: a grant beyond it is a grant the code
 * can never use.
 */
import * as path from 'node:path';
import { build } from 'esbuild';
import type { Access, TableAction, TableIndex } from '../../shared/http/route.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** The IAM actions each SDK command needs (lib-dynamodb's and the plain client's names). */
const commandActions: Record<string, readonly string[]> = {
  GetCommand: ['dynamodb:GetItem'],
  GetItemCommand: ['dynamodb:GetItem'],
  BatchGetCommand: ['dynamodb:BatchGetItem'],
  BatchGetItemCommand: ['dynamodb:BatchGetItem'],
  QueryCommand: ['dynamodb:Query'],
  ScanCommand: ['dynamodb:Scan'],
  PutCommand: ['dynamodb:PutItem'],
  PutItemCommand: ['dynamodb:PutItem'],
  UpdateCommand: ['dynamodb:UpdateItem'],
  UpdateItemCommand: ['dynamodb:UpdateItem'],
  DeleteCommand: ['dynamodb:DeleteItem'],
  DeleteItemCommand: ['dynamodb:DeleteItem'],
  BatchWriteCommand: ['dynamodb:BatchWriteItem'],
  BatchWriteItemCommand: ['dynamodb:BatchWriteItem'],
  PutEventsCommand: ['events:PutEvents'],
  SendEmailCommand: ['ses:SendEmail'],
  SendRawEmailCommand: ['ses:SendRawEmail'],
  GetObjectCommand: ['s3:GetObject'],
  PutObjectCommand: ['s3:PutObject'],
  GetSecretValueCommand: ['secretsmanager:GetSecretValue'],
};

/** A transaction's items each need their own action; IAM has none for the transaction itself. */
const transactItemActions: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
};

export interface HandlerCalls {
  /** Every SDK command the bundle imports. */
  readonly commands: ReadonlySet<string>;
  /** The IAM actions those commands need (`dynamodb:GetItem`, `events:PutEvents`, ...). */
  readonly actions: ReadonlySet<string>;
  /** The table actions among them, as rows name them. */
  readonly tableActions: ReadonlySet<TableAction>;
  /** The index names the bundle spells. */
  readonly indexes: ReadonlySet<TableIndex>;
}

/** What the handler module (relative to the repository root) can call. */
export async function handlerCalls(handler: string): Promise<HandlerCalls> {
  const result = await build({
    entryPoints: [path.join(root, handler)],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*'],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.text ?? '';
  const commands = new Set(
    [...code.matchAll(/import\s*\{([^}]*)\}\s*from\s*"@aws-sdk\/[^"]+"/g)].flatMap((match) =>
      (match[1] ?? '')
        .split(',')
        .map((name) => name.trim().split(/\s+as\s+/)[0] ?? '')
        .filter((name) => name.endsWith('Command')),
    ),
  );
  const actions = new Set([...commands].flatMap((command) => commandActions[command] ?? []));
  if (commands.has('TransactWriteCommand') || commands.has('TransactWriteItemsCommand')) {
    for (const [item, action] of Object.entries(transactItemActions))
      if (new RegExp(`\\b${item}:\\s*\\{`).test(code)) actions.add(action);
  }
  const tableActions = new Set(
    [...actions]
      .filter((a) => a.startsWith('dynamodb:'))
      .map((a) => a.slice('dynamodb:'.length) as TableAction),
  );
  const indexes = new Set([...code.matchAll(/["'](gsi\d+)["']/g)].map((match) => match[1] as TableIndex));
  return { commands, actions, tableActions, indexes };
}

/** What a row grants that its handler's code never calls; empty when the row is within the code. */
export function widerThanCode(access: Access, calls: HandlerCalls, requestPath: boolean): string[] {
  const wider: string[] = [];
  for (const action of access.table?.actions ?? [])
    if (!calls.tableActions.has(action)) wider.push(`dynamodb:${action}`);
  if (requestPath && access.table?.actions.includes('Scan')) wider.push('dynamodb:Scan on a request path');
  for (const index of access.table?.indexes ?? []) {
    if (!calls.indexes.has(index)) wider.push(`index ${index}`);
    if (!access.table?.actions.includes('Query')) wider.push(`index ${index} without Query`);
  }
  if (access.events && !calls.actions.has('events:PutEvents')) wider.push('events:PutEvents');
  if (access.mail && !calls.actions.has('ses:SendEmail')) wider.push('ses:SendEmail');
  if (access.media && !calls.actions.has('s3:GetObject')) wider.push('s3:GetObject');
  if (access.media === 'write' && !calls.actions.has('s3:PutObject')) wider.push('s3:PutObject');
  const readsSecret = access.tokenSecret || access.fingerprintSecret || access.webhookKey;
  if (readsSecret && !calls.actions.has('secretsmanager:GetSecretValue'))
    wider.push('secretsmanager:GetSecretValue');
  return wider;
}
