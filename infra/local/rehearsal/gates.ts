/**
 * IAM in front of the local AWS endpoints, for rehearsal mode: one small HTTP proxy per service
 * (DynamoDB Local, the S3 and SES emulators, the event bus, the Secrets Manager endpoint). Each
 * function signs with its own key pair; the proxy reads the caller from the SigV4 Authorization
 * header's credential, works out the IAM actions and resources the request needs, and refuses it in
 * the service's own error shape (which the SDK turns into AccessDeniedException / AccessDenied)
 * unless the caller's role's policies in the template allow every one. Allowed requests go on
 * unchanged, but for DynamoDB Local, which keeps a database per access key id: there the key id is
 * put back to the stack's own (it checks no signature).
 */
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { tableDefinition } from '../../../shared/db/table.ts';
import { listenOnLoopback, readBody } from '../server.ts';
import { allowed, type Request } from './iam.ts';
import type { Statement } from './template.ts';

export type Service = 'dynamodb' | 's3' | 'ses' | 'events' | 'secretsmanager';

/** A function as the endpoints know it: its key, its role and the role's statements. */
export interface Caller {
  accessKeyId: string;
  functionId: string;
  role: string;
  statements: readonly Statement[];
}

export interface Denial {
  service: Service;
  caller: Caller;
  request: Request;
}

export interface GateOptions {
  service: Service;
  /** Where allowed requests go. */
  target: string;
  region: string;
  account: string;
  /** The stack's own key id: its requests (the stream reader, the CLI, tests) pass unchecked. */
  stackKeyId: string;
  callerOf: (accessKeyId: string) => Caller | undefined;
  onDenied?: (denial: Denial) => void;
}

export interface Gate {
  url: string;
  close(): Promise<void>;
}

const maxBody = 64 * 1024 * 1024;

/** The access key id of a SigV4 Authorization header (or presigned query), if any. */
export function accessKeyIdOf(headers: IncomingMessage['headers'], url: URL): string | undefined {
  const header = String(headers.authorization ?? '');
  const fromHeader = /Credential=([^/,\s]+)\//.exec(header)?.[1];
  return fromHeader ?? url.searchParams.get('X-Amz-Credential')?.split('/')[0] ?? undefined;
}

const tableArn = (region: string, account: string, table: string) =>
  `arn:aws:dynamodb:${region}:${account}:table/${table}`;

/** The partition key values a DynamoDB item operation touches (for dynamodb:LeadingKeys). */
function leadingKeys(keyOrItem: unknown): string[] | undefined {
  const value = (keyOrItem as Record<string, { S?: string }> | undefined)?.[tableDefinition.partitionKey]?.S;
  return value === undefined ? undefined : [value];
}

/** What a DynamoDB JSON request asks, per table (and index) it names. */
function dynamoRequests(headers: IncomingMessage['headers'], body: Buffer, region: string, account: string) {
  const operation = String(headers['x-amz-target'] ?? '').replace(/^DynamoDB_\d+\./, '');
  const input = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
  const arn = (table: unknown, index?: unknown) =>
    `${tableArn(region, account, String(table))}${index ? `/index/${String(index)}` : ''}`;
  const one = (action: string, table: unknown, index?: unknown, keys?: string[]): Request => ({
    action: `dynamodb:${action}`,
    resource: arn(table, index),
    ...(keys ? { context: { 'dynamodb:LeadingKeys': keys } } : {}),
  });
  switch (operation) {
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys((input.RequestItems as object | undefined) ?? {}).map((table) =>
        one(operation, table),
      );
    case 'TransactWriteItems':
      return ((input.TransactItems as Record<string, Record<string, unknown>>[] | undefined) ?? []).flatMap(
        (item) =>
          Object.entries(item).map(([kind, part]) => {
            const action =
              kind === 'ConditionCheck' ? 'ConditionCheckItem' : kind === 'Put' ? 'PutItem' : `${kind}Item`;
            return one(action, part.TableName, undefined, leadingKeys(part.Key ?? part.Item));
          }),
      );
    case 'TransactGetItems':
      return ((input.TransactItems as { Get?: Record<string, unknown> }[] | undefined) ?? []).map((item) =>
        one('GetItem', item.Get?.TableName, undefined, leadingKeys(item.Get?.Key)),
      );
    default:
      return [one(operation, input.TableName, input.IndexName, leadingKeys(input.Key ?? input.Item))];
  }
}

/** What a path-style S3 request asks: the action its method and query name, on the bucket or object. */
function s3Requests(method: string, url: URL): Request[] {
  const [, bucket = '', ...rest] = url.pathname.split('/');
  const key = rest.map((part) => decodeURIComponent(part)).join('/');
  const query = url.searchParams;
  const version = query.has('versionId') ? 'Version' : '';
  if (!key) {
    const action =
      method === 'POST' && query.has('delete')
        ? 's3:DeleteObject'
        : method === 'GET' && query.has('versions')
          ? 's3:ListBucketVersions'
          : method === 'GET' || method === 'HEAD'
            ? 's3:ListBucket'
            : `s3:${method === 'PUT' ? 'CreateBucket' : method === 'DELETE' ? 'DeleteBucket' : 'ListBucket'}`;
    return [{ action, resource: `arn:aws:s3:::${bucket}${action === 's3:DeleteObject' ? '/*' : ''}` }];
  }
  const object = `arn:aws:s3:::${bucket}/${key}`;
  const tagging = query.has('tagging') ? 'Tagging' : '';
  let action: string;
  if (method === 'GET' || method === 'HEAD') action = `s3:GetObject${version}${tagging}`;
  else if (method === 'DELETE')
    action = query.has('uploadId') ? 's3:AbortMultipartUpload' : `s3:DeleteObject${version}${tagging}`;
  else action = tagging ? `s3:PutObject${version}Tagging` : 's3:PutObject';
  return [{ action, resource: object }];
}

/** The address in `Name <address>` or a bare address. */
const addressOf = (value: string) => (/<([^>]+)>/.exec(value)?.[1] ?? value).trim();

/** What an SES request asks (the v1 query protocol, or the v2 JSON API): send from an identity. */
function sesRequests(method: string, url: URL, body: Buffer, region: string, account: string): Request[] {
  let action: string | undefined;
  let from: string | undefined;
  if (url.pathname.startsWith('/v2/email/outbound-emails')) {
    const input = JSON.parse(body.toString('utf8') || '{}') as { FromEmailAddress?: string };
    action = 'ses:SendEmail';
    from = input.FromEmailAddress;
  } else if (method === 'POST') {
    const form = new URLSearchParams(body.toString('utf8'));
    action = `ses:${form.get('Action') ?? ''}`;
    from = form.get('Source') ?? undefined;
    if (!from && form.get('RawMessage.Data')) {
      const raw = Buffer.from(form.get('RawMessage.Data') ?? '', 'base64').toString('utf8');
      from = /^From:\s*(.+)$/im.exec(raw)?.[1];
    }
  }
  if (!action) return [];
  const address = from ? addressOf(from) : '';
  return [
    {
      action,
      resource: `arn:aws:ses:${region}:${account}:identity/${address.split('@')[1] ?? address}`,
      context: address ? { 'ses:FromAddress': [address] } : {},
    },
  ];
}

function eventsRequests(headers: IncomingMessage['headers'], body: Buffer, region: string, account: string) {
  const operation = String(headers['x-amz-target'] ?? '').replace(/^AWSEvents\./, '');
  const input = JSON.parse(body.toString('utf8') || '{}') as { Entries?: { EventBusName?: string }[] };
  const busArn = (name = 'default') =>
    name.startsWith('arn:') ? name : `arn:aws:events:${region}:${account}:event-bus/${name}`;
  const buses = new Set((input.Entries ?? []).map((entry) => busArn(entry.EventBusName)));
  if (buses.size === 0) buses.add(busArn());
  return [...buses].map((resource) => ({ action: `events:${operation}`, resource }));
}

function secretsRequests(headers: IncomingMessage['headers'], body: Buffer, region: string, account: string) {
  const operation = String(headers['x-amz-target'] ?? '').replace(/^secretsmanager\./, '');
  const input = JSON.parse(body.toString('utf8') || '{}') as { SecretId?: string };
  const id = String(input.SecretId ?? '');
  // A name matches the ARN Secrets Manager gives it (name, then six characters); the local endpoint
  // ends its ARNs with `-local`.
  const resource = id.startsWith('arn:')
    ? id
    : `arn:aws:secretsmanager:${region}:${account}:secret:${id}-local`;
  return [{ action: `secretsmanager:${operation}`, resource }];
}

function requestsOf(
  service: Service,
  request: IncomingMessage,
  url: URL,
  body: Buffer,
  region: string,
  account: string,
) {
  const method = (request.method ?? 'GET').toUpperCase();
  switch (service) {
    case 'dynamodb':
      return dynamoRequests(request.headers, body, region, account);
    case 's3':
      return s3Requests(method, url);
    case 'ses':
      return sesRequests(method, url, body, region, account);
    case 'events':
      return eventsRequests(request.headers, body, region, account);
    case 'secretsmanager':
      return secretsRequests(request.headers, body, region, account);
  }
}

/** The service's own "access denied" answer, as its SDK client reads it. */
function deniedAnswer(service: Service, message: string): { status: number; type: string; body: string } {
  const requestId = randomUUID();
  const xml = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${inner}`;
  switch (service) {
    case 'dynamodb':
      return {
        status: 400,
        type: 'application/x-amz-json-1.0',
        body: JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#AccessDeniedException', message }),
      };
    case 'events':
    case 'secretsmanager':
      return {
        status: 400,
        type: 'application/x-amz-json-1.1',
        body: JSON.stringify({ __type: 'AccessDeniedException', Message: message, message }),
      };
    case 's3':
      return {
        status: 403,
        type: 'application/xml',
        body: xml(
          `<Error><Code>AccessDenied</Code><Message>${escapeXml(message)}</Message><RequestId>${requestId}</RequestId></Error>`,
        ),
      };
    case 'ses':
      return {
        status: 403,
        type: 'text/xml',
        body: xml(
          `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>${escapeXml(message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`,
        ),
      };
  }
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

function forward(target: URL, request: IncomingMessage, body: Buffer, headers: IncomingMessage['headers']) {
  return new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((done, fail) => {
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          done({
            status: response.statusCode ?? 502,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', fail);
      },
    );
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

/** Starts one gate on a free loopback port. */
export async function startGate(options: GateOptions): Promise<Gate> {
  const target = new URL(options.target);
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://gate');
      const body = await readBody(request, maxBody);
      const keyId = accessKeyIdOf(request.headers, url);
      let headers = request.headers;
      if (keyId !== options.stackKeyId) {
        const caller = keyId === undefined ? undefined : options.callerOf(keyId);
        const deny = (message: string) => {
          const answer = deniedAnswer(options.service, message);
          response.writeHead(answer.status, {
            'Content-Type': answer.type,
            'x-amzn-ErrorType': 'AccessDeniedException',
          });
          response.end(answer.body);
        };
        if (!caller)
          return deny(`The access key id ${keyId ?? '(none)'} belongs to no function of this stack.`);
        let requests: Request[];
        try {
          requests = requestsOf(options.service, request, url, body, options.region, options.account);
        } catch {
          requests = [];
        }
        const principal = `arn:aws:sts::${options.account}:assumed-role/${caller.role}/${caller.functionId}`;
        if (requests.length === 0)
          return deny(
            `User: ${principal} is not authorized to perform this request (no IAM action known for it).`,
          );
        const refused = requests.find((one) => !allowed(caller.statements, one));
        if (refused) {
          options.onDenied?.({ service: options.service, caller, request: refused });
          return deny(
            `User: ${principal} is not authorized to perform: ${refused.action} on resource: ${refused.resource} because no identity-based policy allows the ${refused.action} action`,
          );
        }
        if (options.service === 'dynamodb')
          headers = {
            ...headers,
            authorization: String(headers.authorization).replace(
              `Credential=${keyId}/`,
              `Credential=${options.stackKeyId}/`,
            ),
          };
      }
      const answer = await forward(target, request, body, headers);
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    })().catch((error: Error) => {
      if (!response.headersSent) response.writeHead(502, { 'Content-Type': 'text/plain' });
      response.end(`the ${options.service} gate could not reach its endpoint: ${error.message}`);
    });
  });
  server.keepAliveTimeout = 65_000;
  const port = await listenOnLoopback(server, 0);
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
