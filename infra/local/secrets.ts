/**
 * A local Secrets Manager endpoint: enough of its JSON protocol for the AWS SDK client
 * (`GetSecretValue`, and `PutSecretValue` to rotate a value), on 127.0.0.1, holding the stack's
 * secrets. Handlers reach it through AWS_ENDPOINT_URL_SECRETS_MANAGER and read their secrets as they
 * do deployed (shared/core/secrets.ts). No emulator on npm is light enough to run in-process for
 * this, and two operations are all cobro calls.
 *
 * Every request must be signed (Signature Version 4) with the stack's own key pair, as the S3
 * emulator checks: the endpoint hands out the token signing secret, so another user of this machine
 * must not read it by asking. Each secret keeps two versions, AWSCURRENT and AWSPREVIOUS, as
 * Secrets Manager does when a value is put.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalCredentials } from './info.ts';
import { listening } from './ports.ts';

/** One value of a secret. */
interface Version {
  id: string;
  value: string;
  /** Seconds since the epoch, as the protocol writes dates. */
  created: number;
}

interface StoredSecret {
  name: string;
  arn: string;
  current: Version;
  previous?: Version;
}

export interface LocalSecretsManager {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** A secret's values when the endpoint starts: the current one, and the one it replaced if any. */
export interface LocalSecretValues {
  current: string;
  previous?: string;
}

export interface SecretsManagerOptions {
  port: number;
  region: string;
  /** The stack's key pair, whose signatures are accepted. */
  credentials: LocalCredentials;
  /**
   * Other key pairs accepted (rehearsal mode: each function's own, behind its IAM gate), by key id.
   * @default none
   */
  otherCredentials?: (accessKeyId: string) => LocalCredentials | undefined;
  /** The secrets it holds, by name. */
  secrets: Readonly<Record<string, LocalSecretValues>>;
  /** A value was put (PutSecretValue): the stack keeps it, so a restart serves the same. @default none */
  onPut?: (name: string, values: Required<LocalSecretValues>) => void;
}

/** Largest request body taken: a secret value is at most 64 KB. */
const maxBodyBytes = 128 * 1024;
/** How far a signature's time may be from this clock, as AWS allows. */
const maxSkewMs = 15 * 60 * 1000;

class ProtocolError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(status: number, type: string, message: string) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

const notFound = (message: string) => new ProtocolError(400, 'ResourceNotFoundException', message);

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * Checks a request's Signature Version 4 (the Authorization header form the SDK sends) against the
 * stack's key pair: the same canonical request, string to sign and derived key AWS computes.
 */
export function checkSignature(
  request: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
  body: Buffer,
  credentials: LocalCredentials,
  now = Date.now(),
): void {
  const authorization = request.headers.authorization ?? '';
  const parsed =
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization,
    );
  if (!parsed)
    throw new ProtocolError(
      400,
      'MissingAuthenticationTokenException',
      'Request is missing Authentication Token',
    );
  const [keyId, day = '', region = '', service = '', signedHeaders = '', signature = ''] = parsed.slice(1);
  if (keyId !== credentials.access_key_id)
    throw new ProtocolError(
      400,
      'UnrecognizedClientException',
      'The security token included in the request is invalid.',
    );
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const signedAt = /^\d{8}T\d{6}Z$/.test(amzDate)
    ? Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'))
    : Number.NaN;
  if (!amzDate.startsWith(day) || !(Math.abs(now - signedAt) <= maxSkewMs))
    throw new ProtocolError(403, 'InvalidSignatureException', 'Signature expired or not yet valid.');
  const url = new URL(request.url ?? '/', 'http://local');
  const names = signedHeaders.split(';');
  if (!names.includes('host'))
    throw new ProtocolError(403, 'InvalidSignatureException', 'The host header must be signed.');
  const canonicalHeaders = names
    .map((name) => {
      const value = request.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  // The JSON protocol posts to `/` with no query string: anything else is not a call of it.
  if (url.search !== '')
    throw new ProtocolError(400, 'UnknownOperationException', 'The JSON protocol takes no query string.');
  const canonicalRequest = [
    request.method ?? 'POST',
    url.pathname,
    '',
    canonicalHeaders,
    signedHeaders,
    sha256(body),
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${credentials.secret_access_key}`, day);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(stringToSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex')))
    throw new ProtocolError(
      403,
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided.',
    );
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new ProtocolError(413, 'ValidationException', 'The request is too large.'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

const nowSeconds = () => Date.now() / 1000;

/** Starts the endpoint on 127.0.0.1:`port` (EADDRINUSE when taken, for onFreePort). */
export async function startSecretsManager(options: SecretsManagerOptions): Promise<LocalSecretsManager> {
  const account = '000000000000';
  const stored = new Map<string, StoredSecret>();
  for (const [name, values] of Object.entries(options.secrets)) {
    const created = nowSeconds();
    stored.set(name, {
      name,
      // Secrets Manager ends an ARN with six random characters; any suffix does here.
      arn: `arn:aws:secretsmanager:${options.region}:${account}:secret:${name}-local`,
      current: { id: randomUUID(), value: values.current, created },
      ...(values.previous === undefined
        ? {}
        : { previous: { id: randomUUID(), value: values.previous, created } }),
    });
  }
  const find = (id: unknown): StoredSecret => {
    const found = [...stored.values()].find((secret) => secret.name === id || secret.arn === id);
    if (!found) throw notFound("Secrets Manager can't find the specified secret.");
    return found;
  };

  const operations: Record<string, (input: Record<string, unknown>) => unknown> = {
    GetSecretValue(input) {
      const secret = find(input.SecretId);
      const stage = input.VersionStage ?? (input.VersionId === undefined ? 'AWSCURRENT' : undefined);
      const version =
        stage === 'AWSCURRENT' || secret.current.id === input.VersionId
          ? secret.current
          : stage === 'AWSPREVIOUS' || secret.previous?.id === input.VersionId
            ? secret.previous
            : undefined;
      if (!version)
        throw notFound(
          `Secrets Manager can't find the specified secret value for ${stage ? `staging label: ${String(stage)}` : `VersionId: ${String(input.VersionId)}`}`,
        );
      return {
        ARN: secret.arn,
        Name: secret.name,
        VersionId: version.id,
        SecretString: version.value,
        VersionStages: [version === secret.current ? 'AWSCURRENT' : 'AWSPREVIOUS'],
        CreatedDate: version.created,
      };
    },
    PutSecretValue(input) {
      const secret = find(input.SecretId);
      if (typeof input.SecretString !== 'string' || input.SecretString.length === 0)
        throw new ProtocolError(400, 'InvalidParameterException', 'SecretString is required here.');
      const id = typeof input.ClientRequestToken === 'string' ? input.ClientRequestToken : randomUUID();
      // The same request again (the SDK retries with the same token) puts nothing new.
      if (secret.current.id !== id || secret.current.value !== input.SecretString) {
        secret.previous = secret.current;
        secret.current = { id, value: input.SecretString, created: nowSeconds() };
        options.onPut?.(secret.name, { current: secret.current.value, previous: secret.previous.value });
      }
      return { ARN: secret.arn, Name: secret.name, VersionId: id, VersionStages: ['AWSCURRENT'] };
    },
  };

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1' });
    response.end(JSON.stringify(body));
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      try {
        const body = await readBody(request);
        const keyId = /Credential=([^/,\s]+)\//.exec(String(request.headers.authorization ?? ''))?.[1];
        const other = keyId === undefined ? undefined : options.otherCredentials?.(keyId);
        checkSignature(request, body, other ?? options.credentials);
        const target = String(request.headers['x-amz-target'] ?? '');
        const operation = target.startsWith('secretsmanager.')
          ? operations[target.slice('secretsmanager.'.length)]
          : undefined;
        if (request.method !== 'POST' || !operation)
          throw new ProtocolError(
            400,
            'UnknownOperationException',
            `${target || 'this operation'} is not served locally`,
          );
        let input: unknown;
        try {
          input = JSON.parse(body.toString('utf8') || '{}');
        } catch {
          throw new ProtocolError(400, 'SerializationException', 'The body is not JSON.');
        }
        if (typeof input !== 'object' || input === null || Array.isArray(input))
          throw new ProtocolError(400, 'SerializationException', 'The body is not a JSON object.');
        answer(response, 200, operation(input as Record<string, unknown>));
      } catch (error) {
        if (error instanceof ProtocolError)
          answer(response, error.status, { __type: error.type, message: error.message });
        else answer(response, 500, { __type: 'InternalServiceError', message: 'the local endpoint failed' });
      }
    })();
  });
  server.listen(options.port, '127.0.0.1');
  await listening(server);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
